import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
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
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let position = 0;
  const push = (chunk: Buffer | string) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(buffer);
    position += buffer.length;
  };
  const object = (n: number, text: string) => {
    offsets[n] = position;
    push(`${n} 0 obj\n${text}\nendobj\n`);
  };
  push('%PDF-1.7\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${SIZES_PT.A4.width} ${SIZES_PT.A4.height}] >>`);
  offsets[4] = position;
  push(
    `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${deflated.length} >>\nstream\n`,
  );
  push(deflated);
  push('\nendstream\nendobj\n');
  const xref = position;
  const entries = [1, 2, 3, 4].map((n) => `${String(offsets[n]).padStart(10, '0')} 00000 n \n`).join('');
  push(
    `xref\n0 5\n0000000000 65535 f \n${entries}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return own(Buffer.concat(parts));
}
