/**
 * Hong Kong telephone numbers (the Communications Authority's numbering plan), shared by the login
 * (otp.ts) and the application forms (machines/forms). Every number is 8 digits, no area code:
 *
 * - mobile: starts 4, 5, 6, 7, 8 or 9 (4, 7 and 8 only partly; we accept the whole blocks so that a
 *   newly opened block never locks a real applicant out, and leave finer checks to the delivery);
 * - fixed line (telephone or fax at an address): starts 2 or 3;
 * - a telephone field accepts either: any 8 digits starting 2 to 9.
 *
 * What the applicant types is forgiving: full-width digits (from a Chinese input method) are folded,
 * spaces, hyphens, dots and brackets are ignored, and a country code 852 in front (`+852`, `852`,
 * `(852)`) is dropped. Each normaliser answers the 8 digits, or undefined when what is left is not a
 * number of its kind.
 */

export const HK_MOBILE_PATTERN = /^[4-9][0-9]{7}$/;
export const HK_FIXED_LINE_PATTERN = /^[23][0-9]{7}$/;
export const HK_PHONE_PATTERN = /^[2-9][0-9]{7}$/;
/** The longest input a phone field takes before it is even looked at (drafts check this only). */
export const PHONE_INPUT_MAX = 30;

function hkDigits(value: string, pattern: RegExp): string | undefined {
  const folded = value.normalize('NFKC').trim();
  if (folded.length > PHONE_INPUT_MAX || !/^\+?[0-9\s\-().]+$/.test(folded)) return undefined;
  let digits = folded.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('852')) digits = digits.slice(3);
  return pattern.test(digits) ? digits : undefined;
}

/** A Hong Kong mobile as its 8 digits (starting 4-9), or undefined. */
export function normaliseHkMobile(value: string): string | undefined {
  return hkDigits(value, HK_MOBILE_PATTERN);
}

/** A Hong Kong fixed-line telephone or fax as its 8 digits (starting 2 or 3), or undefined. */
export function normaliseHkFixedLine(value: string): string | undefined {
  return hkDigits(value, HK_FIXED_LINE_PATTERN);
}

/** Any Hong Kong telephone number, fixed or mobile, as its 8 digits (starting 2-9), or undefined. */
export function normaliseHkPhone(value: string): string | undefined {
  return hkDigits(value, HK_PHONE_PATTERN);
}
