/** How files are named when they are downloaded (RFC 6266), for every module's downloads. */

/**
 * Invisible characters that change how a name reads: bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE makes
 * `invoice\u202Efdp.exe` show as `invoiceexe.pdf`), marks, isolates, and zero-width spaces.
 */
export const INVISIBLE_FORMAT_CHARS = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A file name safe in Content-Disposition's quoted form (ASCII, no quotes or separators). */
export function asciiFileName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\/:*?<>|;%]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  return ascii && ascii !== '.pdf' ? ascii.slice(0, 150) : 'document.pdf';
}

/** `attachment; filename="<ascii>"; filename*=UTF-8''<the name, percent-encoded>` (RFC 6266). */
export function contentDisposition(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  // Names stored before bidi controls were removed at upload lose them here too.
  name = name.replace(INVISIBLE_FORMAT_CHARS, '');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${asciiFileName(name)}"; filename*=UTF-8''${encoded}`;
}
