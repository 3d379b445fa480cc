import { z } from 'zod';

/**
 * The public check of a letter the department issued (docs/decisions/038-sealed-letters.md): what
 * GET/POST /api/verify answer and what the /verify page shows. No personal data: the kind of letter, its
 * reference (which the person already holds), the dates and whether it still stands.
 */

/** A reference as the console makes it: three letters, a dash, the application number, a dash, a count. */
export const VERIFY_REFERENCE_PATTERN = /^[A-Z]{3}-[A-Z0-9][A-Z0-9-]{3,60}$/;

export const verifyReferenceSchema = z
  .string({ error: 'verify.reference.required' })
  .overwrite((v) => v.normalize('NFKC').trim().toUpperCase())
  .min(1, { error: 'verify.reference.required', abort: true })
  .regex(VERIFY_REFERENCE_PATTERN, { error: 'verify.reference.invalid' });

export const verifyQuerySchema = z.object({ reference: verifyReferenceSchema });

export const LETTER_KINDS = [
  'LETTER_OF_REQUIREMENTS',
  'CERTIFICATE',
  'NOTICE',
  'REJECTION',
  'LOR_WITHDRAWAL',
  'CERTIFICATE_REVOCATION',
  'CASE_REOPENING',
] as const;
export type LetterKind = (typeof LETTER_KINDS)[number];

/** Whether the letter still stands, and if not, why: withdrawn, revised (a later letter), revoked, reopened. */
export type LetterStanding = 'STANDS' | 'WITHDRAWN' | 'REVISED' | 'REVOKED' | 'REOPENED';

export interface VerifyAnswer {
  /** The reference asked, or the one of the file found. */
  reference: string | null;
  /** The department issued a letter under this reference (for a file: this very file). */
  issued: boolean;
  kind: LetterKind | null;
  /** The day it was issued, Hong Kong time, YYYY-MM-DD. */
  issuedOn: string | null;
  standing: LetterStanding | null;
  /** The day it stopped standing, Hong Kong time, YYYY-MM-DD (null while it stands). */
  standingSince: string | null;
  /** For a file: true when its SHA-256 is the stored letter's; null when no file was sent. */
  fileMatches: boolean | null;
}
