/**
 * The reference number of a Buildings Department letter (a Letter of Requirements), as BD prints its
 * file references: "BD", a file series, the file number and the two-digit year, separated by "/" —
 * "BD 2/9041/26" — optionally followed by a part number in brackets ("BD 2/9041/26 (3)").
 * docs/decisions/021-self-certification.md. Used by the self-certification forms and by the department's
 * Letter of Requirements (one rule, browser and API alike).
 *
 * Typed input is folded: full-width characters (NFKC), upper case, spaces around "/" dropped, "BD" and
 * the series joined by one space. The stored form is "BD 2/9041/26" or "BD 2/9041/26 (3)".
 */

const PATTERN = /^BD ?([0-9]{1,3})\/([0-9]{1,6})\/([0-9]{2})(?: ?\(([0-9]{1,3})\))?$/;

export interface BdReference {
  /** The normalised reference: "BD 2/9041/26". */
  value: string;
  series: string;
  file: string;
  /** Two-digit year. */
  year: string;
  part?: string;
}

/** Parses a BD reference as typed; undefined when it is not one. */
export function parseBdReference(input: string): BdReference | undefined {
  const folded = input
    .normalize('NFKC')
    .toUpperCase()
    .trim()
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s*\(\s*/g, ' (')
    .replace(/\s*\)/g, ')')
    .replace(/\s+/g, ' ');
  const match = PATTERN.exec(folded);
  if (!match) return undefined;
  const [, series = '', file = '', year = '', part] = match;
  const value = `BD ${series}/${file}/${year}${part ? ` (${part})` : ''}`;
  return { value, series, file, year, ...(part ? { part } : {}) };
}
