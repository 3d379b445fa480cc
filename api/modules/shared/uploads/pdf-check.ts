/**
 * @file
 * Checks an uploaded supporting document before it is accepted: it must be a readable, unencrypted PDF
 * whose every page is landscape A4 or landscape A3, because the officers print the documents on those
 * sheets and bind them with the application. Pure apart from pdf-lib's parse; no I/O.
 */

import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFStream,
} from 'pdf-lib';

/** Points per millimetre (1 pt = 1/72 inch, 1 inch = 25.4 mm). */
export const PT_PER_MM = 72 / 25.4;

/** Millimetres to points. */
export function mmToPt(mm: number): number {
  return mm * PT_PER_MM;
}

/** Points to millimetres. */
export function ptToMm(pt: number): number {
  return pt / PT_PER_MM;
}

/**
 * How far each side of a page may be from the nominal paper size, in millimetres (±3 mm, about 8.5 pt).
 * Scanners, "print to PDF" drivers and CAD exports round page sizes differently (842 × 595 pt,
 * 841.89 × 595.28 pt, 297 × 210 mm rounded to whole pixels at 150 dpi ...), so an exact match would refuse
 * good documents; 3 mm is well below the gap to the nearest other common size (A4 is 210 wide, Letter
 * 215.9), so nothing else slips through.
 */
export const PAGE_SIZE_TOLERANCE_MM = 3;

/** {@link PAGE_SIZE_TOLERANCE_MM} in points (≈ 8.5 pt). */
export const PAGE_SIZE_TOLERANCE_PT = mmToPt(PAGE_SIZE_TOLERANCE_MM);

/** The accepted papers, landscape (width > height), in millimetres (ISO 216). */
export const LANDSCAPE_PAPERS = {
  A4: { widthMm: 297, heightMm: 210 },
  A3: { widthMm: 420, heightMm: 297 },
} as const;

export type Paper = keyof typeof LANDSCAPE_PAPERS;

/** `%PDF-` must start within this many bytes (the same window Acrobat allows for leading junk). */
export const PDF_HEADER_WINDOW = 1024;

/**
 * `%%EOF` must occur within this many bytes of the end. pdf-lib recovers whatever objects it can from a
 * file cut short and happily reports its pages, so without this rule half a PDF passes; a real PDF ends
 * with `%%EOF` (a few writers add trailing bytes, and Acrobat tolerates up to 1024 of them, as we do).
 */
export const PDF_EOF_WINDOW = 1024;

export interface CheckedPage {
  /** Width as displayed, after /Rotate, in points. */
  widthPt: number;
  /** Height as displayed, after /Rotate, in points. */
  heightPt: number;
  paper: Paper;
}

export interface PdfCheckPassed {
  ok: true;
  pageCount: number;
  pages: CheckedPage[];
}

/**
 * Why a file was refused. `empty`, `not-pdf`, `encrypted` and `corrupt` are about the whole file;
 * `portrait` and `size` name the first failing page (1-based), and `size` also gives that page's size in
 * millimetres (one decimal, as displayed) so the message can say what was found.
 */
export type PdfRejectReason =
  'empty' | 'not-pdf' | 'encrypted' | 'corrupt' | 'active-content' | 'portrait' | 'size';

export interface PdfCheckFailed {
  ok: false;
  reason: PdfRejectReason;
  page?: number;
  widthMm?: number;
  heightMm?: number;
}

export type PdfCheckResult = PdfCheckPassed | PdfCheckFailed;

export interface PdfCheckOptions {
  /** Allowed difference on each side, in millimetres. Default {@link PAGE_SIZE_TOLERANCE_MM}. */
  toleranceMm?: number;
  /**
   * pdf-lib yields to the event loop after this many objects, so one large upload does not stall every
   * other request. Default 1500 (pdf-lib's "Fast"); Infinity parses in one go.
   */
  objectsPerTick?: number;
}

const ASCII = new TextEncoder();
const PDF_MAGIC = ASCII.encode('%PDF-');
const EOF_MARKER = ASCII.encode('%%EOF');

/** Whether `needle` occurs in `haystack[from, to)`. A plain scan: the windows are 1 KB. */
export function containsBytes(
  haystack: Uint8Array,
  needle: Uint8Array,
  from = 0,
  to = haystack.length,
): boolean {
  const last = Math.min(to, haystack.length) - needle.length;
  outer: for (let i = Math.max(0, from); i <= last; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return true;
  }
  return false;
}

/** `%PDF-` within the first {@link PDF_HEADER_WINDOW} bytes. */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  return containsBytes(bytes, PDF_MAGIC, 0, PDF_HEADER_WINDOW);
}

/** `%%EOF` within the last {@link PDF_EOF_WINDOW} bytes. */
export function hasEofMarker(bytes: Uint8Array): boolean {
  return containsBytes(bytes, EOF_MARKER, bytes.length - PDF_EOF_WINDOW);
}

export interface Box {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

/**
 * A PDF rectangle as left/bottom/right/top: the spec allows any two opposite corners, so `[842 595 0 0]`
 * is the same box as `[0 0 842 595]`.
 */
export function normaliseBox(x1: number, y1: number, x2: number, y2: number): Box {
  return {
    left: Math.min(x1, x2),
    bottom: Math.min(y1, y2),
    right: Math.max(x1, x2),
    top: Math.max(y1, y2),
  };
}

/** The overlap of two boxes (a CropBox reaching outside the MediaBox is clipped to it), or empty. */
export function intersectBoxes(a: Box, b: Box): Box {
  const left = Math.max(a.left, b.left);
  const bottom = Math.max(a.bottom, b.bottom);
  return {
    left,
    bottom,
    right: Math.max(left, Math.min(a.right, b.right)),
    top: Math.max(bottom, Math.min(a.top, b.top)),
  };
}

/**
 * The size a page is displayed and printed at: the visible box's width and height, swapped when /Rotate
 * turns the page a quarter (90 or 270 degrees, including negative angles). Undefined when /Rotate is not
 * a multiple of 90, which the spec forbids and viewers disagree about.
 */
export function displayedSize(
  box: Box,
  rotateDegrees: number,
  userUnit = 1,
): { widthPt: number; heightPt: number } | undefined {
  if (!Number.isInteger(rotateDegrees) || rotateDegrees % 90 !== 0) return undefined;
  const width = (box.right - box.left) * userUnit;
  const height = (box.top - box.bottom) * userUnit;
  const quarterTurn = Math.abs(rotateDegrees) % 180 === 90;
  return quarterTurn ? { widthPt: height, heightPt: width } : { widthPt: width, heightPt: height };
}

export type PageVerdict = { ok: true; paper: Paper } | { ok: false; reason: 'portrait' | 'size' };

/**
 * Classifies a displayed page size: landscape A4/A3 passes; the same papers turned upright are
 * `portrait`; anything else (A5, Letter, a slide ...) is `size`. Each side may be off by `toleranceMm`.
 */
export function classifyPage(
  widthPt: number,
  heightPt: number,
  toleranceMm = PAGE_SIZE_TOLERANCE_MM,
): PageVerdict {
  const widthMm = ptToMm(widthPt);
  const heightMm = ptToMm(heightPt);
  const near = (actual: number, nominal: number): boolean => Math.abs(actual - nominal) <= toleranceMm;
  for (const paper of Object.keys(LANDSCAPE_PAPERS) as Paper[]) {
    const nominal = LANDSCAPE_PAPERS[paper];
    if (near(widthMm, nominal.widthMm) && near(heightMm, nominal.heightMm)) return { ok: true, paper };
  }
  for (const nominal of Object.values(LANDSCAPE_PAPERS)) {
    if (near(widthMm, nominal.heightMm) && near(heightMm, nominal.widthMm)) {
      return { ok: false, reason: 'portrait' };
    }
  }
  return { ok: false, reason: 'size' };
}

/** Reads a page's box array, throwing (→ `corrupt`) when it is missing or not four numbers. */
function readBox(array: PDFArray): Box {
  const rect = array.asRectangle();
  return normaliseBox(rect.x, rect.y, rect.x + rect.width, rect.y + rect.height);
}

/** /UserUnit (PDF 1.6): the size of one unit in points; 1 when absent. */
function userUnitOf(page: PDFPage): number {
  const value = page.node.lookupMaybe(PDFName.of('UserUnit'), PDFNumber);
  const unit = value?.asNumber() ?? 1;
  if (!(unit > 0)) throw new Error('Invalid /UserUnit');
  return unit;
}

/**
 * The displayed size of one page: the CropBox (inherited, clipped to the MediaBox) if present, else the
 * MediaBox, rotated by /Rotate. Throws when the page's boxes or rotation cannot be read.
 */
function pageSize(page: PDFPage): { widthPt: number; heightPt: number } {
  const mediaBox = readBox(page.node.MediaBox());
  const cropArray = page.node.CropBox();
  const visible = cropArray ? intersectBoxes(readBox(cropArray), mediaBox) : mediaBox;
  const rotate = page.node.Rotate()?.asNumber() ?? 0;
  const size = displayedSize(visible, rotate, userUnitOf(page));
  if (!size || !(size.widthPt > 0) || !(size.heightPt > 0)) throw new Error('Unreadable page geometry');
  return size;
}

/** Keys that hold actions run by a viewer: JavaScript, additional actions (on open, on page view ...). */
const ACTIVE_KEYS = new Set(['JS', 'JavaScript', 'AA']);
/** Action types that run code or another program, or submit or import data, or open other files. */
const ACTIVE_ACTIONS = new Set([
  'JavaScript',
  'Launch',
  'SubmitForm',
  'ImportData',
  'GoToE',
  'RichMediaExecute',
]);

/**
 * Whether a document carries active content: any dictionary (in any object, object streams included,
 * inline or not) with a /JS, /JavaScript or /AA key, or an action of a type that runs something (/S
 * /JavaScript, /Launch ...). That covers /OpenAction with JavaScript, the /Names JavaScript tree, page and
 * field /AA, link annotations that launch a program. The officers open these files: nothing may run.
 */
export function hasActiveContent(doc: PDFDocument): boolean {
  const stack: PDFObject[] = doc.context.enumerateIndirectObjects().map(([, object]) => object);
  const root = doc.context.trailerInfo.Root;
  if (root) stack.push(root);
  let seen = 0;
  while (stack.length > 0) {
    const object = stack.pop();
    seen += 1;
    if (seen > 2_000_000) return true; // a structure this large is not a drawing set
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined;
    if (dict) {
      for (const [key, value] of dict.entries()) {
        const name = key.decodeText();
        if (ACTIVE_KEYS.has(name)) return true;
        if (name === 'S' && value instanceof PDFName && ACTIVE_ACTIONS.has(value.decodeText())) return true;
        if (value instanceof PDFDict || value instanceof PDFArray) stack.push(value);
      }
    } else if (object instanceof PDFArray) {
      for (const item of object.asArray())
        if (item instanceof PDFDict || item instanceof PDFArray) stack.push(item);
    }
  }
  return false;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * Parses with pdf-lib and decides encryption from the trailer. pdf-lib would throw `EncryptedPDFError`,
 * but its ES5 build breaks `instanceof` on its error subclasses (the prototype is not restored), so the
 * error cannot be told apart from a parse failure; loading with `ignoreEncryption` and reading the
 * trailer ourselves is exact. Any trailer /Encrypt counts, even one pointing at a missing object (pdf-lib's
 * own `isEncrypted` would say no): the writer meant the file to be encrypted, and its strings and
 * streams would not read.
 */
async function load(
  bytes: Uint8Array,
  objectsPerTick: number,
): Promise<PDFDocument | 'encrypted' | 'corrupt'> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, {
      updateMetadata: false,
      ignoreEncryption: true,
      parseSpeed: objectsPerTick,
    });
  } catch {
    return 'corrupt';
  }
  return doc.isEncrypted || doc.context.trailerInfo.Encrypt !== undefined ? 'encrypted' : doc;
}

/**
 * Checks an uploaded file, in this order: empty → not a PDF (no `%PDF-` in the first 1 KB) → cut short
 * (no `%%EOF` in the last 1 KB, see {@link PDF_EOF_WINDOW}) → pdf-lib parse (`encrypted` if the trailer
 * has /Encrypt, `corrupt` if it fails) → JavaScript or other actions (`active-content`,
 * {@link hasActiveContent}) → at least one page → every page landscape A4 or A3 after /Rotate,
 * reporting the first page that is not. A page whose MediaBox, CropBox, /Rotate or /UserUnit cannot be
 * read makes the whole file `corrupt`. Content streams are not decoded: pages that print blank are the
 * officer's call, not this check's.
 */
export async function checkPdf(bytes: Uint8Array, options: PdfCheckOptions = {}): Promise<PdfCheckResult> {
  const toleranceMm = options.toleranceMm ?? PAGE_SIZE_TOLERANCE_MM;
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  if (!hasPdfHeader(bytes)) return { ok: false, reason: 'not-pdf' };
  if (!hasEofMarker(bytes)) return { ok: false, reason: 'corrupt' };

  const doc = await load(bytes, options.objectsPerTick ?? 1500);
  if (doc === 'encrypted' || doc === 'corrupt') return { ok: false, reason: doc };
  if (hasActiveContent(doc)) return { ok: false, reason: 'active-content' };

  let pdfPages: PDFPage[];
  try {
    pdfPages = doc.getPages();
  } catch {
    return { ok: false, reason: 'corrupt' };
  }
  if (pdfPages.length === 0) return { ok: false, reason: 'corrupt' };

  const pages: CheckedPage[] = [];
  for (const [index, pdfPage] of pdfPages.entries()) {
    let size: { widthPt: number; heightPt: number };
    try {
      size = pageSize(pdfPage);
    } catch {
      return { ok: false, reason: 'corrupt' };
    }
    const verdict = classifyPage(size.widthPt, size.heightPt, toleranceMm);
    const page = index + 1;
    if (!verdict.ok) {
      return verdict.reason === 'portrait'
        ? { ok: false, reason: 'portrait', page }
        : {
            ok: false,
            reason: 'size',
            page,
            widthMm: round1(ptToMm(size.widthPt)),
            heightMm: round1(ptToMm(size.heightPt)),
          };
    }
    pages.push({ ...size, paper: verdict.paper });
  }
  return { ok: true, pageCount: pages.length, pages };
}
