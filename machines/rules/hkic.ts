/**
 * Hong Kong Identity Card (HKIC) numbers, spec §5: entered without the brackets round the check
 * character (A123456(3) is typed A1234563). One or two capital letters, six digits, then a check
 * character that is a digit or A. The check is a weighted sum modulo 11:
 *
 * - the 8 characters before the check are weighted 9, 8, ..., 2; a one-letter number is padded in
 *   front with a space worth 36 (so the letter takes weight 8);
 * - letters count A = 10 ... Z = 35, digits their value;
 * - check = 11 - (sum mod 11), where 11 is written 0 and 10 is written A (and only A).
 *
 * Worked example: A1234563 → 36×9 + 10×8 + 1×7 + 2×6 + 3×5 + 4×4 + 5×3 + 6×2 = 481; 481 mod 11 = 8;
 * 11 - 8 = 3 ✓.
 */

const HKIC_PATTERN = /^([A-Z]{1,2})([0-9]{6})([0-9A])$/;
/** The value of the padding space in front of a one-letter number. */
const SPACE_VALUE = 36;

const charValue = (c: string): number =>
  c >= 'A' && c <= 'Z' ? c.charCodeAt(0) - 'A'.charCodeAt(0) + 10 : Number(c);

/** The check character for the letters and six digits of a number ('0'-'9' or 'A'). */
export function hkicCheckCharacter(prefix: string, digits: string): string {
  const values = [...(prefix.length === 1 ? [SPACE_VALUE] : []), ...[...(prefix + digits)].map(charValue)];
  const sum = values.reduce((acc, v, i) => acc + v * (9 - i), 0);
  const check = 11 - (sum % 11);
  if (check === 11) return '0';
  if (check === 10) return 'A';
  return String(check);
}

/**
 * True when `input` is a valid HKIC number exactly as stored: capital letters, no brackets, no spaces.
 * Call `normaliseHkic` first on what the applicant typed.
 */
export function isValidHkic(input: string): boolean {
  const match = HKIC_PATTERN.exec(input);
  if (!match) return false;
  const [, prefix = '', digits = '', check = ''] = match;
  return input.length >= 8 && hkicCheckCharacter(prefix, digits) === check;
}

/**
 * What the applicant typed, as stored: full-width characters folded (Ａ１２… from a Chinese input
 * method), spaces removed, upper case, and a bracketed check character at the end unwrapped
 * (`a123456(3)` → `A1234563`). It does not validate: pass the result to `isValidHkic`.
 */
export function normaliseHkic(input: string): string {
  return input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/\(([0-9A])\)$/, '$1');
}
