/**
 * Registration numbers of Authorized Persons (AP) and Registered Structural Engineers (RSE) under the
 * Buildings Ordinance (Cap 123) s3: APs are on one of three lists — architects AP(A), engineers AP(E),
 * surveyors AP(S) — and RSEs on their own register. People write the number as the register prints it,
 * a list marker and digits ("AP(A) 1234", "RSE 567"), with varying spacing, case, brackets and full-width
 * characters from a Chinese input method. The rule (docs/decisions/018-registration-numbers.md):
 *
 * - fold full-width characters (NFKC), upper case, drop spaces, "/", "-" and "." between the parts;
 * - the marker is AP(A), AP(E), AP(S) or RSE ("APA" without brackets is accepted and bracketed);
 * - then 1 to 5 digits, leading zeros kept as typed;
 * - the stored form is the marker, one space, the digits: "AP(A) 1234", "RSE 567".
 *
 * The identity of the person (AP or RSE) must match the register of the number. Registrations are
 * renewed every five years, so each appointment or certificate also carries the registration's expiry
 * date, which must not be past.
 */

export const IDENTITIES = ['ap', 'rse'] as const;
export type Identity = (typeof IDENTITIES)[number];

export const AP_LISTS = ['A', 'E', 'S'] as const;

export interface RegistrationNumber {
  /** The normalised number: "AP(A) 1234", "RSE 567". */
  value: string;
  identity: Identity;
  /** For an AP, the list: A (architects), E (engineers), S (surveyors). */
  list?: (typeof AP_LISTS)[number];
  digits: string;
}

const PATTERN = /^(?:AP\(?([AES])\)?|RSE)([0-9]{1,5})$/;

/** Parses what a person typed; undefined when it is not a registration number of either register. */
export function parseRegistrationNumber(input: string): RegistrationNumber | undefined {
  const compact = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s/.\-:]+/g, '');
  const match = PATTERN.exec(compact);
  if (!match) return undefined;
  const [, list, digits = ''] = match;
  if (list) {
    return {
      value: `AP(${list}) ${digits}`,
      identity: 'ap',
      list: list as RegistrationNumber['list'],
      digits,
    };
  }
  return { value: `RSE ${digits}`, identity: 'rse', digits };
}

/** The stored form of a number, or the input trimmed when it is not one (the schema then refuses it). */
export function normaliseRegistrationNumber(input: string): string {
  return parseRegistrationNumber(input)?.value ?? input.trim();
}

export type RegistrationProblem = 'format' | 'identityMismatch' | 'expired';

/**
 * The problem with a registration, or undefined when it is usable on `today` (YYYY-MM-DD, Hong Kong):
 * a number of neither register, a number of the other register than the stated identity, or an expiry
 * date before today (a registration expiring today is still valid today).
 */
export function registrationProblem(
  number: string,
  identity: Identity,
  expiryDate: string,
  today: string,
): RegistrationProblem | undefined {
  const parsed = parseRegistrationNumber(number);
  if (!parsed) return 'format';
  if (parsed.identity !== identity) return 'identityMismatch';
  if (expiryDate < today) return 'expired';
  return undefined;
}
