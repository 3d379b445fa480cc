import { createHash } from 'node:crypto';
import type { Db } from '../../../drizzle/db';
import { hongKongDate } from '../../../machines/rules/working-days';
import type { LetterKind, LetterStanding, VerifyAnswer } from '../../../machines/rules/verify';
import { firstLaterEvent, letterByReference, letterBySha256, type IssuedLetter } from './verify.repo';

/**
 * The public check of an issued letter (docs/decisions/038-sealed-letters.md): did the department issue
 * it (the reference exists; for a file, its SHA-256 is the stored sealed letter's), and does it still
 * stand. The answer holds no personal data: kind, reference, dates (Hong Kong), standing.
 */
export interface VerifyService {
  byReference(reference: string): Promise<VerifyAnswer>;
  /** A file, with or without the reference the person read on it. */
  byFile(file: Uint8Array, reference: string | null): Promise<VerifyAnswer>;
}

/** What each letter-issuing event issues, and which later events end it (docs/flows/case-rules.md). */
const LETTERS: Record<
  string,
  { kind: (data: unknown) => LetterKind; endedBy: Record<string, LetterStanding> }
> = {
  'lor.issue': {
    kind: () => 'LETTER_OF_REQUIREMENTS',
    endedBy: { 'lor.withdraw': 'WITHDRAWN', 'lor.issue': 'REVISED' },
  },
  'certificate.issue': {
    kind: (data) => ((data as { kind?: string } | null)?.kind === 'NOTICE' ? 'NOTICE' : 'CERTIFICATE'),
    endedBy: { 'certificate.revoke': 'REVOKED', 'certificate.issue': 'REVISED' },
  },
  'case.reject': { kind: () => 'REJECTION', endedBy: { 'case.reopen': 'REOPENED' } },
  'lor.withdraw': { kind: () => 'LOR_WITHDRAWAL', endedBy: {} },
  'certificate.revoke': { kind: () => 'CERTIFICATE_REVOCATION', endedBy: {} },
  'case.reopen': { kind: () => 'CASE_REOPENING', endedBy: {} },
};

const notIssued = (reference: string | null, fileMatches: boolean | null): VerifyAnswer => ({
  reference,
  issued: false,
  kind: null,
  issuedOn: null,
  standing: null,
  standingSince: null,
  fileMatches,
});

export function createVerifyService({ db }: { db: Db }): VerifyService {
  const answer = async (letter: IssuedLetter, fileMatches: boolean | null): Promise<VerifyAnswer> => {
    const rule = LETTERS[letter.event];
    if (!rule) return notIssued(letter.reference, fileMatches);
    const ended = await firstLaterEvent(db, letter.applicationId, letter.id, Object.keys(rule.endedBy));
    return {
      reference: letter.reference,
      issued: fileMatches !== false,
      kind: rule.kind(letter.data),
      issuedOn: hongKongDate(letter.createdAt),
      standing: ended ? (rule.endedBy[ended.event] ?? 'STANDS') : 'STANDS',
      standingSince: ended ? hongKongDate(ended.createdAt) : null,
      fileMatches,
    };
  };
  const known = (letter: IssuedLetter | undefined) => (letter && LETTERS[letter.event] ? letter : undefined);

  return {
    async byReference(reference) {
      const letter = known(await letterByReference(db, reference));
      return letter ? answer(letter, null) : notIssued(reference, null);
    },
    async byFile(file, reference) {
      const sha256 = createHash('sha256').update(file).digest('hex');
      const letter = known(await letterBySha256(db, sha256));
      // The file is a letter the department issued; a reference given must be its own.
      if (letter && (reference === null || reference === letter.reference)) return answer(letter, true);
      if (reference === null) return notIssued(null, false);
      // Not this reference's file (changed, or another letter): say what the reference is, and that the
      // file is not it.
      const named = known(await letterByReference(db, reference));
      return named ? answer(named, false) : notIssued(reference, false);
    },
  };
}
