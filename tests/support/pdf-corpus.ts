import { randomBytes } from 'node:crypto';
import { createDeflate, deflateSync } from 'node:zlib';
import { PDFDocument, PDFHexString, PDFName, PDFNumber, StandardFonts } from 'pdf-lib';

/**
 * PDFs made at test time with pdf-lib, one per case the document check must tell apart. Unit, API and
 * browser tests import these by name, so keep the names and their meaning stable. Every function
 * returns a fresh {@link PdfBytes}.
 */

/**
 * A `Uint8Array` over a plain `ArrayBuffer` (not a possibly shared one), so it can go straight into
 * `new Blob([...])`, `fetch` bodies and `FormData` without a cast.
 */
export type PdfBytes = Uint8Array<ArrayBuffer>;

/** pdf-lib's output typed as {@link PdfBytes} (it is a fresh, unshared buffer; no copy needed). */
function own(bytes: Uint8Array): PdfBytes {
  return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
}

/** Nominal sizes in points (ISO 216, 1 mm = 72 / 25.4 pt), landscape unless named otherwise. */
export const SIZES_PT = {
  A4: { width: 841.89, height: 595.28 },
  A3: { width: 1190.55, height: 841.89 },
  A5: { width: 595.28, height: 419.53 },
  letter: { width: 792, height: 612 },
} as const;

export interface PageSpec {
  /** MediaBox width in points. */
  width: number;
  /** MediaBox height in points. */
  height: number;
  /** /Rotate in degrees (a multiple of 90). */
  rotate?: number;
  /** A CropBox [x, y, width, height] in points, inside the MediaBox. */
  cropBox?: readonly [number, number, number, number];
}

/**
 * A PDF with one page per spec, each labelled with its number (so it is not a blank page). Saved with
 * object streams unless `useObjectStreams` is false (a classic `xref` table, as older writers make).
 */
export async function pdfWithPages(
  specs: readonly PageSpec[],
  { useObjectStreams = true }: { useObjectStreams?: boolean } = {},
): Promise<PdfBytes> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  specs.forEach((spec, index) => {
    const page = doc.addPage([spec.width, spec.height]);
    page.drawText(`Test page ${index + 1}`, { x: 36, y: 36, size: 18, font });
    if (spec.rotate !== undefined) page.node.set(PDFName.of('Rotate'), PDFNumber.of(spec.rotate));
    if (spec.cropBox) page.setCropBox(...spec.cropBox);
  });
  return own(await doc.save({ useObjectStreams }));
}

const a4Landscape: PageSpec = { width: SIZES_PT.A4.width, height: SIZES_PT.A4.height };
const a4Portrait: PageSpec = { width: SIZES_PT.A4.height, height: SIZES_PT.A4.width };

/** One landscape A4 page: accepted. */
export function landscapeA4(): Promise<PdfBytes> {
  return pdfWithPages([a4Landscape]);
}

let uniqueCount = 0;

/**
 * One landscape A4 page whose text says `label` (by default a number new on each call): accepted, and of
 * a content (SHA-256) no other call gives, for tests where two files must not be the same file.
 */
export async function uniqueLandscapeA4(label = `${process.pid}-${++uniqueCount}`): Promise<PdfBytes> {
  const doc = await PDFDocument.load(await landscapeA4());
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.getPage(0).drawText(`File ${label}`, { x: 36, y: 72, size: 12, font });
  return own(await doc.save());
}

/** One landscape A3 page: accepted. */
export function landscapeA3(): Promise<PdfBytes> {
  return pdfWithPages([{ width: SIZES_PT.A3.width, height: SIZES_PT.A3.height }]);
}

/** One portrait A4 page: refused as portrait, page 1. */
export function portraitA4(): Promise<PdfBytes> {
  return pdfWithPages([a4Portrait]);
}

/** A portrait A4 MediaBox with /Rotate 90: displayed landscape, so accepted. */
export function rotatedPortraitA4(): Promise<PdfBytes> {
  return pdfWithPages([{ ...a4Portrait, rotate: 90 }]);
}

/** A landscape A4 MediaBox with /Rotate 90: displayed portrait, so refused as portrait, page 1. */
export function rotatedLandscapeA4(): Promise<PdfBytes> {
  return pdfWithPages([{ ...a4Landscape, rotate: 90 }]);
}

/** Landscape A4 pages 1 and 2, then a portrait A4 page 3: refused as portrait, page 3. */
export function mixed(): Promise<PdfBytes> {
  return pdfWithPages([a4Landscape, a4Landscape, a4Portrait]);
}

/** One landscape A5 page (210 × 148 mm): refused for its size, page 1. */
export function a5Landscape(): Promise<PdfBytes> {
  return pdfWithPages([{ width: SIZES_PT.A5.width, height: SIZES_PT.A5.height }]);
}

/**
 * A landscape A4 PDF whose trailer has an /Encrypt dictionary (standard security handler, RC4 40-bit).
 * pdf-lib cannot encrypt, so the dictionary is declared but nothing is actually enciphered: a reader
 * would decrypt the plain content into garbage, which is exactly why such a file must be refused.
 */
export async function encrypted(): Promise<PdfBytes> {
  const doc = await PDFDocument.load(await landscapeA4());
  const { context } = doc;
  const encrypt = context.obj({
    Filter: 'Standard',
    V: 1,
    R: 2,
    Length: 40,
    P: -44,
    O: PDFHexString.of('ab'.repeat(32)),
    U: PDFHexString.of('cd'.repeat(32)),
  });
  context.trailerInfo.Encrypt = context.register(encrypt);
  const id = PDFHexString.of(randomBytes(16).toString('hex'));
  context.trailerInfo.ID = context.obj([id, id]);
  return own(await doc.save());
}

/** A valid three-page landscape A4 PDF cut in half: refused as corrupt. */
export async function truncated(): Promise<PdfBytes> {
  const whole = await pdfWithPages([a4Landscape, a4Landscape, a4Landscape]);
  return whole.slice(0, Math.floor(whole.length / 2));
}

/**
 * A three-page landscape A4 PDF cut just before its `xref` table, so every object is intact and only the
 * table, trailer and `%%EOF` are missing. pdf-lib loads this and finds all three pages; the check must
 * still call it corrupt (see `PDF_EOF_WINDOW` in api/modules/shared/uploads/pdf-check.ts).
 */
export async function truncatedBeforeXref(): Promise<PdfBytes> {
  const whole = await pdfWithPages([a4Landscape, a4Landscape, a4Landscape], { useObjectStreams: false });
  const at = Buffer.from(whole).lastIndexOf('\nxref');
  if (at < 0) throw new Error('truncatedBeforeXref: no xref table');
  return whole.slice(0, at + 1);
}

/** A PNG (signature, IHDR and the rest of a 1 × 1 image): refused as not a PDF. */
export function notPdf(): Promise<PdfBytes> {
  return Promise.resolve(
    Uint8Array.from(
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    ),
  );
}

/** Zero bytes: refused as empty. */
export function empty(): Promise<PdfBytes> {
  return Promise.resolve(new Uint8Array(0));
}

export interface BigPdfOptions {
  /** Landscape A4 pages. Default 20. */
  pages?: number;
  /** Upper bound on the file size; the result is within 64 KiB below it. Default 10 MiB. */
  bytes?: number;
}

const MIB = 1024 * 1024;
/** Headroom left for each padding stream's dictionary and cross-reference entry. */
const PER_STREAM_OVERHEAD = 128;

/**
 * A large, valid PDF: landscape A4 pages, each carrying an unfiltered stream of random (so
 * incompressible) bytes, sized so the file lands just under `bytes` (default 10 MiB, the file limit).
 * The streams hang off an unregistered page key, which readers ignore. Takes tens of milliseconds.
 */
export async function bigPdf(options: BigPdfOptions = {}): Promise<PdfBytes> {
  const pages = options.pages ?? 20;
  const target = options.bytes ?? 10 * MIB;
  const base = await pdfWithPages(Array.from({ length: pages }, () => a4Landscape));
  const padding = target - base.length - pages * PER_STREAM_OVERHEAD - 1024;
  if (padding < pages) throw new Error(`bigPdf: ${target} bytes is too small for ${pages} pages`);

  const doc = await PDFDocument.load(base);
  const random = randomBytes(padding);
  const share = Math.floor(padding / pages);
  doc.getPages().forEach((page, index) => {
    const start = index * share;
    const end = index === pages - 1 ? padding : start + share;
    const stream = doc.context.stream(random.subarray(start, end));
    page.node.set(PDFName.of('BDTestPadding'), doc.context.register(stream));
  });
  const bytes = own(await doc.save());
  if (bytes.length > target || bytes.length < target - 64 * 1024) {
    throw new Error(`bigPdf: made ${bytes.length} bytes, wanted just under ${target}`);
  }
  return bytes;
}

/** One object of a hand-written PDF: `N G obj <body> endobj`, with a stream after the body if given. */
export interface RawObject {
  num: number;
  gen?: number;
  body: string;
  stream?: Uint8Array;
}

export interface RawPdfOptions {
  /** Which definition of an object number written twice the xref table points to. Default 'last'. */
  xref?: 'first' | 'last';
  /** More trailer entries, e.g. `/Info 9 0 R`. */
  trailer?: string;
  /** Bytes before `%PDF-` and after the final `%%EOF\n` (polyglots). */
  before?: Uint8Array | string;
  after?: Uint8Array | string;
}

/**
 * A PDF written byte by byte, as a hostile writer would: objects in the given order (an object number may
 * appear twice), a classic xref table pointing to the first or the last definition of each, the trailer
 * with /Root 1 0 R. For what pdf-lib cannot be made to write.
 */
export function rawPdf(objects: readonly RawObject[], options: RawPdfOptions = {}): PdfBytes {
  const parts: Buffer[] = [];
  const offsets = new Map<number, { offset: number; gen: number }>();
  let position = 0;
  const push = (chunk: Uint8Array | string) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : Buffer.from(chunk);
    parts.push(buffer);
    position += buffer.length;
  };
  if (options.before) push(options.before);
  const start = position;
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  for (const { num, gen = 0, body, stream } of objects) {
    if (options.xref !== 'first' || !offsets.has(num)) offsets.set(num, { offset: position - start, gen });
    push(`${num} ${gen} obj\n${body}\n`);
    if (stream) {
      push('stream\n');
      push(stream);
      push('\nendstream\n');
    }
    push('endobj\n');
  }
  const size = Math.max(...offsets.keys()) + 1;
  const entries = Array.from({ length: size }, (_, n) => {
    const entry = offsets.get(n);
    return entry
      ? `${String(entry.offset).padStart(10, '0')} ${String(entry.gen).padStart(5, '0')} n \n`
      : '0000000000 65535 f \n';
  }).join('');
  const xref = position - start;
  push(`xref\n0 ${size}\n${entries}trailer\n<< /Size ${size} /Root 1 0 R ${options.trailer ?? ''}>>\n`);
  push(`startxref\n${xref}\n%%EOF\n`);
  if (options.after) push(options.after);
  return own(Buffer.concat(parts));
}

/** The catalog (1), page tree (2) and one landscape A4 page (3) of a hand-written PDF; `page` adds entries. */
export function rawBase(page = '', catalog = ''): RawObject[] {
  return [
    { num: 1, body: `<< /Type /Catalog /Pages 2 0 R ${catalog}>>` },
    { num: 2, body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    {
      num: 3,
      body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${SIZES_PT.A4.width} ${SIZES_PT.A4.height}] ${page}>>`,
    },
  ];
}

/**
 * `mib` MiB of spaces (the first bytes `prefix`) deflated a MiB at a time, so a GiB bomb is made without
 * holding the GiB. About a second per GiB.
 */
export async function deflatedSpaces(mib: number, prefix = ''): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(MIB, 0x20);
  chunk.write(prefix, 0, 'latin1');
  deflate.write(Buffer.from(chunk));
  chunk.fill(0x20, 0, prefix.length);
  for (let i = 1; i < mib; i += 1) {
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * A content-stream bomb: one landscape A4 page whose /Contents inflates to `inflatedMiB` MiB of spaces
 * (1 GiB → about 1 MB). pdf-lib never decodes page contents, so only a check that measures them sees it.
 */
export async function contentStreamBomb(inflatedMiB: number): Promise<PdfBytes> {
  const deflated = await deflatedSpaces(inflatedMiB);
  return rawPdf([
    ...rawBase('/Contents 4 0 R'),
    { num: 4, body: `<< /Filter /FlateDecode /Length ${deflated.length} >>`, stream: deflated },
  ]);
}

/**
 * A decompression bomb: a landscape A4 PDF (written by hand, with a classic xref table) that also holds
 * an object stream (/Type /ObjStm, /FlateDecode) of `inflatedMiB` MiB of spaces, deflated to about
 * 1/1000 of that (1 GiB → about 1 MB). pdf-lib inflates object streams while it loads a file, so an
 * unguarded check spends that memory and time. Making 256 MiB takes about a second.
 */
export function objectStreamBomb(inflatedMiB: number): PdfBytes {
  const body = Buffer.alloc(inflatedMiB * MIB, 0x20);
  body.write('5 0 ', 0, 'latin1');
  const deflated = deflateSync(body, { level: 9 });
  return rawPdf([
    ...rawBase(),
    {
      num: 4,
      body: `<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${deflated.length} >>`,
      stream: deflated,
    },
  ]);
}
