import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { type PdfBytes, SIZES_PT, landscapeA4, rawBase, rawPdf } from './pdf-corpus';

/**
 * Hostile PDFs made at test time, one per way a file can carry something a reader runs, opens or sends,
 * or hide it from a check (docs/decisions/031-pdf-active-content.md). Each is otherwise a good landscape
 * A4 page, so only the one feature can refuse it. pdf-lib writes what it can; the rest is written byte by
 * byte (`rawPdf`).
 */

const own = (bytes: Uint8Array): PdfBytes =>
  new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);

/** A landscape A4 PDF that `change` adds to, saved with object streams unless told otherwise. */
export async function withChange(
  change: (doc: PDFDocument) => void | Promise<void>,
  useObjectStreams = true,
): Promise<PdfBytes> {
  const doc = await PDFDocument.create();
  doc.addPage([SIZES_PT.A4.width, SIZES_PT.A4.height]);
  await change(doc);
  return own(await doc.save({ useObjectStreams }));
}

/** An annotation on page 1, registered as an object of its own. */
function annotate(doc: PDFDocument, annotation: Record<string, unknown>): void {
  const ref = doc.context.register(
    doc.context.obj({ Type: 'Annot', Rect: [0, 0, 100, 100], ...annotation } as never),
  );
  doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([ref]));
}

/** A link on page 1 whose action is `/S kind` with `extra` entries. */
const linkWith = (kind: string, extra: Record<string, unknown> = {}) =>
  withChange((doc) => annotate(doc, { Subtype: 'Link', A: { S: kind, ...extra } }));

/** {@link rawPdf} as a promise, like the other makers. */
const raw = (...args: Parameters<typeof rawPdf>): Promise<PdfBytes> => Promise.resolve(rawPdf(...args));

const JS_OPEN = '/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>';

/** Object 1 (the catalog) twice: the xref points to the first, a clean one; the later one runs JavaScript. */
export const duplicateCatalogJsLater = (): Promise<PdfBytes> =>
  raw([...rawBase(), { num: 1, body: `<< /Type /Catalog /Pages 2 0 R ${JS_OPEN} >>` }], { xref: 'first' });

/** Object 1 twice: the xref points to the first, which runs JavaScript; pdf-lib keeps the later, clean one. */
export const duplicateCatalogJsFirst = (): Promise<PdfBytes> => {
  const [catalog, ...rest] = rawBase('', JS_OPEN);
  return raw([catalog!, ...rest, { num: 1, body: '<< /Type /Catalog /Pages 2 0 R >>' }], {
    xref: 'first',
  });
};

/** A link whose action (by reference) launches a program, its /S given by reference to the name /Launch. */
export const indirectLaunch = (): Promise<PdfBytes> =>
  raw([
    ...rawBase('/Annots [6 0 R]'),
    { num: 4, body: '<< /S 5 0 R /F (calc.exe) >>' },
    { num: 5, body: '/Launch' },
    { num: 6, body: '<< /Type /Annot /Subtype /Link /Rect [0 0 100 100] /A 4 0 R >>' },
  ]);

/** The same with the name written with a hex escape (`/Laun#63h`) and no /AA: a link's action. */
export const escapedLaunchLink = (): Promise<PdfBytes> =>
  raw([
    ...rawBase('/Annots [4 0 R]'),
    {
      num: 4,
      body: '<< /Type /Annot /Subtype /Link /Rect [0 0 100 100] /A << /S /Laun#63h /F (calc.exe) >> >>',
    },
  ]);

/** A file attached in the document's /EmbeddedFiles names tree (pdf-lib's `attach`). */
export const embeddedFilesTree = (): Promise<PdfBytes> =>
  withChange((doc) =>
    doc.attach(Buffer.from('MZ not really a program'), 'setup.exe', { mimeType: 'application/octet-stream' }),
  );

/** A file specification with /EF (an embedded file stream) that no names tree lists, linked from a page. */
export const embeddedFileSpec = (): Promise<PdfBytes> =>
  withChange((doc) => {
    const file = doc.context.register(doc.context.stream('hello', { Type: 'EmbeddedFile' }));
    const spec = doc.context.obj({ Type: 'Filespec', F: PDFString.of('a.txt'), EF: { F: file } });
    doc.getPage(0).node.set(PDFName.of('BDSpec'), doc.context.register(spec));
  });

/** A FileAttachment annotation on page 1 (its file given by name only, no /EF). */
export const fileAttachmentAnnotation = (): Promise<PdfBytes> =>
  withChange((doc) =>
    annotate(doc, { Subtype: 'FileAttachment', FS: { Type: 'Filespec', F: PDFString.of('a.txt') } }),
  );

/** An AcroForm with /XFA (a template with no script): an XFA form. */
export const xfaForm = (): Promise<PdfBytes> =>
  withChange((doc) => {
    const xdp = doc.context.register(doc.context.stream('<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"/>'));
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [], XFA: xdp }));
  });

/** A RichMedia annotation (a Flash-era player) on page 1. */
export const richMediaAnnotation = (): Promise<PdfBytes> =>
  withChange((doc) => annotate(doc, { Subtype: 'RichMedia', RichMediaContent: {} }));

/** Links whose actions open another PDF, an embedded one, send the form, or import data. */
export const goToRLink = () => linkWith('GoToR', { F: PDFString.of('other.pdf'), D: [0, { Fit: true }] });
export const goToELink = () => linkWith('GoToE', { T: { R: 'C', N: PDFString.of('a.pdf') } });
export const submitFormLink = () =>
  linkWith('SubmitForm', { F: { FS: 'URL', F: PDFString.of('https://x.test/') } });
export const importDataLink = () => linkWith('ImportData', { F: PDFString.of('data.fdf') });

/** A form field whose keystroke action (/AA /K) runs JavaScript, in an object stream. */
export const fieldJavaScript = (): Promise<PdfBytes> =>
  withChange((doc) => {
    const field = doc.context.register(
      doc.context.obj({
        FT: 'Tx',
        T: PDFString.of('name'),
        AA: { K: { S: 'JavaScript', JS: PDFString.of('event.rc = true') } },
      }),
    );
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [field] }));
  });

/** Data before `%PDF-` (here a line of HTML), as a polyglot carries. */
export const leadingData = async (): Promise<PdfBytes> => {
  const pdf = await landscapeA4();
  return own(Buffer.concat([Buffer.from('<html><script>alert(1)</script></html>\n'), pdf]));
};

/** A ZIP's local file header and data after the last `%%EOF`. */
export const trailingZip = async (): Promise<PdfBytes> => {
  const pdf = await landscapeA4();
  return own(Buffer.concat([pdf, Buffer.from('PK\x03\x04\x14\x00\x00\x00payload.js', 'latin1')]));
};

/** Only line ends, spaces and NULs after `%%EOF`: still a plain PDF. */
export const trailingWhitespace = async (): Promise<PdfBytes> => {
  const pdf = await landscapeA4();
  return own(Buffer.concat([pdf, Buffer.from('\r\n  \n\0\0\n', 'latin1')]));
};

/** `count` landscape A4 pages, each its own (blank) page object, written by pdf-lib. */
export async function manyPages(count: number): Promise<PdfBytes> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < count; i++) doc.addPage([SIZES_PT.A4.width, SIZES_PT.A4.height]);
  return own(await doc.save());
}

/** A page tree listing the one page object `count` times (/Count says so too): `count` pages to a reader. */
export const repeatedPageRefs = (count: number): Promise<PdfBytes> => {
  const [catalog, , page] = rawBase();
  const kids = Array.from({ length: count }, () => '3 0 R').join(' ');
  return raw([catalog!, { num: 2, body: `<< /Type /Pages /Kids [${kids}] /Count ${count} >>` }, page!]);
};

/** A page tree whose kid is the tree itself. */
export const loopingPageTree = (): Promise<PdfBytes> => {
  const [catalog, , page] = rawBase();
  return raw([catalog!, { num: 2, body: '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>' }, page!]);
};

/**
 * JavaScript inside an object stream that pdf-lib's parse of the file skips: the stream is a second
 * definition of an object number, earlier in the file than the clean one. Written by hand.
 */
export const javaScriptInShadowedObjectStream = (): Promise<PdfBytes> => {
  const header = '5 0 ';
  const data = deflateSync(Buffer.from(`${header}<< /S /JavaScript /JS (app.alert\\(1\\)) >>`, 'latin1'));
  return raw(
    [
      {
        num: 6,
        body: `<< /Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>`,
        stream: data,
      },
      ...rawBase('', '/OpenAction 5 0 R'),
      { num: 5, body: '<< /S /URI /URI (https://www.bd.gov.hk/) >>' },
    ],
    { xref: 'first' },
  );
};

/**
 * Objects in object streams, `objects` of them in streams of `perStream`: a file slow to parse for its
 * size, as some CAD exports are (several hundred thousand small dictionaries).
 */
export function objectStreamHeavy(objects: number, perStream = 10_000): PdfBytes {
  const list: { num: number; body: string; stream?: Uint8Array }[] = rawBase();
  // The streams are objects 4, 5 ...; the objects in them are numbered from 1000 (no xref entries needed).
  let num = 1000;
  for (let done = 0, stream = 4; done < objects; done += perStream, stream++) {
    const count = Math.min(perStream, objects - done);
    const numbers = Array.from({ length: count }, (_, i) => num + i);
    const bodies = numbers.map((n) => `<< /BD [${n} 0 ${n % 97} 1] /K /V >>`);
    const offsets: number[] = [];
    let at = 0;
    for (const body of bodies) {
      offsets.push(at);
      at += body.length + 1;
    }
    const head = numbers.map((n, i) => `${n} ${offsets[i]}`).join(' ') + '\n';
    const data = deflateSync(Buffer.from(head + bodies.join('\n') + '\n', 'latin1'));
    list.push({
      num: stream,
      body: `<< /Type /ObjStm /N ${count} /First ${head.length} /Filter /FlateDecode /Length ${data.length} >>`,
      stream: data,
    });
    num += count;
  }
  return rawPdf(list);
}
