/**
 * @file
 * Checks an uploaded supporting document before it is accepted: it must be a readable, unencrypted PDF
 * whose every page is landscape A4 or landscape A3, because the officers print the documents on those
 * sheets and bind them with the application, and it must hold nothing that runs, opens or sends anything
 * when an officer opens it (docs/decisions/031-pdf-active-content.md). No I/O; runs in the check's worker
 * threads (pdf-check-pool.ts).
 */

import { PDFArray, type PDFContext, PDFName, PDFNumber, type PDFObject, PDFRef } from 'pdf-lib';
import { type ActiveContentReason, WalkTooLongError, findActiveContent } from './pdf-active-content';
import { checkFrame } from './pdf-frame';
import { type PdfObjects, TooManyObjectsError, isDecodeLimit, readPdfObjects } from './pdf-objects';
import { DEFAULT_MAX_PAGES, type PageEntry, readPageTree } from './pdf-page-tree';
import { InflateBudget, InflateLimitError } from './pdf-stream-size';

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
 * Why a file was refused. `empty`, `not-pdf`, `extra-data`, `encrypted`, `corrupt`, `too-complex`,
 * `too-many-pages` and the reasons of pdf-active-content.ts are about the whole file; `portrait` and
 * `size` name the first failing page (1-based), and `size` also gives that page's size in millimetres (one
 * decimal, as displayed) so the message can say what was found.
 */
export type PdfRejectReason =
  | 'empty'
  | 'not-pdf'
  | 'extra-data'
  | 'encrypted'
  | 'corrupt'
  | 'too-complex'
  | 'too-many-pages'
  | ActiveContentReason
  | 'portrait'
  | 'size';

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
  /** The most pages a file may have. Default {@link DEFAULT_MAX_PAGES} (env PDF_CHECK_MAX_PAGES). */
  maxPages?: number;
  /** What one compressed stream may inflate to, in bytes. Default {@link DEFAULT_STREAM_BYTES}. */
  maxStreamBytes?: number;
  /** What all compressed streams of the file may inflate to together, in bytes. Default {@link DEFAULT_TOTAL_BYTES}. */
  maxTotalBytes?: number;
}

const MB = 1024 * 1024;
/** 64 MB: one stream. */
export const DEFAULT_STREAM_BYTES = 64 * MB;
/** 256 MB: all streams of a file (env PDF_CHECK_INFLATE_MB). */
export const DEFAULT_TOTAL_BYTES = 256 * MB;

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

/** Reads a page's box (an array of four numbers, or a reference to one), throwing (→ `corrupt`) otherwise. */
function readBox(value: PDFObject | undefined, context: PDFContext): Box {
  const array = value instanceof PDFRef ? context.lookup(value) : value;
  if (!(array instanceof PDFArray) || array.size() !== 4) throw new Error('Unreadable box');
  const rect = array.asRectangle();
  return normaliseBox(rect.x, rect.y, rect.x + rect.width, rect.y + rect.height);
}

/** A number given directly or by reference, or `fallback` when absent; throws when not a number. */
function readNumber(value: PDFObject | undefined, context: PDFContext, fallback: number): number {
  const found = value instanceof PDFRef ? context.lookup(value) : value;
  if (found === undefined) return fallback;
  if (!(found instanceof PDFNumber)) throw new Error('Not a number');
  return found.asNumber();
}

/**
 * The displayed size of one page: the CropBox (inherited, clipped to the MediaBox) if present, else the
 * MediaBox, rotated by /Rotate and scaled by /UserUnit (PDF 1.6; 1 when absent). Throws when the page's
 * boxes, rotation or unit cannot be read.
 */
function pageSize(page: PageEntry, context: PDFContext): { widthPt: number; heightPt: number } {
  const mediaBox = readBox(page.mediaBox, context);
  const visible = page.cropBox ? intersectBoxes(readBox(page.cropBox, context), mediaBox) : mediaBox;
  const unit = readNumber(page.userUnit, context, 1);
  if (!(unit > 0)) throw new Error('Invalid /UserUnit');
  const size = displayedSize(visible, readNumber(page.rotate, context, 0), unit);
  if (!size || !(size.widthPt > 0) || !(size.heightPt > 0)) throw new Error('Unreadable page geometry');
  return size;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** Whether any trailer (or cross-reference stream) names an /Encrypt dictionary, even a missing one. */
const isEncrypted = (objects: PdfObjects): boolean =>
  objects.trailers.some((trailer) => trailer.get(PDFName.of('Encrypt')) !== undefined);

/** The objects of the file, or why it cannot be judged. */
async function read(
  bytes: Uint8Array,
  options: PdfCheckOptions,
): Promise<PdfObjects | 'too-complex' | 'corrupt'> {
  const budget = new InflateBudget(
    options.maxStreamBytes ?? DEFAULT_STREAM_BYTES,
    options.maxTotalBytes ?? DEFAULT_TOTAL_BYTES,
  );
  try {
    return await readPdfObjects(bytes, budget);
  } catch (error) {
    if (error instanceof InflateLimitError || error instanceof TooManyObjectsError || isDecodeLimit(error))
      return 'too-complex';
    return 'corrupt';
  }
}

/**
 * Checks an uploaded file, in this order: empty → not a PDF (no `%PDF-` in the first 1 KB) → bytes before
 * the header or after the last `%%EOF` (`extra-data`), or no `%%EOF` (cut short: `corrupt`) → every object
 * read (pdf-objects.ts), every compressed stream measured while inflating (`too-complex` past the limits)
 * → `encrypted` if any trailer has /Encrypt → nothing read, or no catalog: `corrupt` → anything that runs,
 * opens or sends (pdf-active-content.ts) → an object that cannot be read (`corrupt`) → the page tree, at
 * most `maxPages` pages (`too-many-pages`) → every page landscape A4 or A3 after /Rotate, reporting the
 * first page that is not. A page whose boxes, /Rotate or /UserUnit cannot be read makes the file `corrupt`.
 * Page contents are measured, not drawn: pages that print blank are the officer's call.
 */
export async function checkPdf(bytes: Uint8Array, options: PdfCheckOptions = {}): Promise<PdfCheckResult> {
  const toleranceMm = options.toleranceMm ?? PAGE_SIZE_TOLERANCE_MM;
  const frame = checkFrame(bytes);
  if (frame !== 'ok') return { ok: false, reason: frame };

  const objects = await read(bytes, options);
  if (objects === 'too-complex' || objects === 'corrupt') return { ok: false, reason: objects };
  if (isEncrypted(objects)) return { ok: false, reason: 'encrypted' };
  if (objects.count === 0 || !objects.root) return { ok: false, reason: 'corrupt' };
  let active: ActiveContentReason | undefined;
  try {
    active = findActiveContent(objects);
  } catch (error) {
    if (error instanceof WalkTooLongError) return { ok: false, reason: 'too-complex' };
    throw error;
  }
  if (active) return { ok: false, reason: active };
  if (objects.unreadable > 0) return { ok: false, reason: 'corrupt' };

  const tree = readPageTree(objects, options.maxPages ?? DEFAULT_MAX_PAGES);
  if (!tree.ok) return { ok: false, reason: tree.reason };

  const pages: CheckedPage[] = [];
  for (const [index, entry] of tree.pages.entries()) {
    let size: { widthPt: number; heightPt: number };
    try {
      size = pageSize(entry, objects.context);
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
