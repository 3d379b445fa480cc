/**
 * The frame of a PDF: the file must begin with `%PDF-` and end with its last `%%EOF`, with only whitespace
 * after it. Bytes before the header or after the end are where a polyglot keeps its other self (a ZIP, an
 * HTML page, a script) that another program opens from the same file; readers skip them, so the check
 * refuses them (docs/decisions/031-pdf-active-content.md).
 */

/** A `%PDF-` this far into the file means a PDF with something before it (`extra-data`), not another type. */
export const PDF_HEADER_WINDOW = 1024;

export type FrameVerdict = 'ok' | 'empty' | 'not-pdf' | 'extra-data' | 'corrupt';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
const EOF_MARKER = Buffer.from('%%EOF', 'latin1');

/** PDF white-space characters (ISO 32000-1, table 1): NUL, tab, line feed, form feed, carriage return, space. */
const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/**
 * Judges the frame: `empty`; `not-pdf` (no `%PDF-` in the first {@link PDF_HEADER_WINDOW} bytes);
 * `extra-data` (bytes before `%PDF-`, or anything but whitespace after the last `%%EOF`); `corrupt` (no
 * `%%EOF` at all: cut short, as pdf-lib would otherwise read half a file and report its pages).
 */
export function checkFrame(bytes: Uint8Array): FrameVerdict {
  if (bytes.length === 0) return 'empty';
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = buffer.subarray(0, PDF_HEADER_WINDOW).indexOf(PDF_MAGIC);
  if (header < 0) return 'not-pdf';
  if (header > 0) return 'extra-data';
  const eof = buffer.lastIndexOf(EOF_MARKER);
  if (eof < 0) return 'corrupt';
  for (let i = eof + EOF_MARKER.length; i < buffer.length; i++) {
    if (!WHITESPACE.has(buffer[i]!)) return 'extra-data';
  }
  return 'ok';
}
