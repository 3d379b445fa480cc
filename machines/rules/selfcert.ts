import { z } from 'zod';
import type { SelfCertKey } from '../forms/catalogue-index';
import { parseBdReference } from './bd-reference';
import { applicationNoSchema, langSchema } from './otp';

/**
 * Which cases a self-certification form may certify (docs/decisions/021-self-certification.md): the form codes of the applications whose
 * premises each certificate is for. The API refuses a self-certification whose case does not exist or is
 * of another type (api/modules/selfcert/selfcert.service.ts). docs/decisions/021-self-certification.md.
 *
 * - SCS-1, SC(S)-1: new registration of a school — A2.
 * - SCS-2, SC(S)-2: alteration or extension of a registered school — B2 (extension), E2 (alteration).
 * - SCC-1: a child care centre to be registered — CCCAI-C2, EDB-JOKC02 (kindergarten-cum-child care
 *   centre), CCCAI-MH3 (mutual help centre).
 * - SCC-2: alteration of a registered child care centre — F2.
 * - SCN-1: premises for a registered non-local course — C2, G2.
 *
 * Keyed by the self-certification forms of the catalogue's index (machines/forms/catalogue-index.ts): one
 * left out, or one not in the index, fails to compile.
 */
export const SELF_CERT_CASE_FORMS = {
  scs1: ['A2'],
  scs2: ['B2', 'E2'],
  scc1: ['CCCAI-C2', 'EDB-JOKC02', 'CCCAI-MH3'],
  scc2: ['F2'],
  scn1: ['C2', 'G2'],
} as const satisfies Readonly<Record<SelfCertKey, readonly string[]>>;

/** Is this form key one of a self-certification? */
export function isSelfCertKey(key: string): key is SelfCertKey {
  return Object.hasOwn(SELF_CERT_CASE_FORMS, key);
}

/** The self-certification form that certifies a case of this form code, if any (one per code). */
export function selfCertFormFor(caseFormCode: string): SelfCertKey | undefined {
  return (Object.keys(SELF_CERT_CASE_FORMS) as SelfCertKey[]).find((key) =>
    certifiesCaseForm(key, caseFormCode),
  );
}

/**
 * The case page's offer to an AP or RSE (docs/decisions/021-self-certification.md): the form that fits the
 * case, and the certifier's identity and registration number to prefill Part B with.
 */
export interface SelfCertOffer {
  formKey: SelfCertKey;
  certifierIdentity: 'ap' | 'rse';
  certifierRegNo: string;
  /**
   * The Letter of Requirements the department issued on the case, as the self-certification's letter step
   * takes it (`letterAnswers`): the items to certify against, not typed again; null for a form without
   * that step or a letter not on record.
   */
  letter: Readonly<Record<string, unknown>> | null;
}

/** What the console issued as a Letter of Requirements (`lor.issue`'s answers, machines/rules/staff.ts). */
export interface IssuedLetter {
  bdReference: string;
  date: string;
  category1: readonly string[];
  category2: readonly string[];
  minorWorks: readonly { item: string; description: string; submissionNo: string }[];
}

/**
 * The letter step's answers from the letter as issued: its reference and date, each requirement with its
 * compliance left for the certifier to state, the minor works rows numbered (docs/decisions/
 * 021-self-certification.md, "Starting from the case").
 */
export function letterAnswers(letter: IssuedLetter): Record<string, unknown> {
  const items = (list: readonly string[]) => list.map((item) => ({ item, status: '', remark: '' }));
  return {
    lorReference: letter.bdReference,
    lorDate: letter.date,
    lorCategory1: items(letter.category1),
    lorCategory2: items(letter.category2),
    ...(letter.minorWorks.length > 0
      ? {
          minorWorksCarriedOut: 'yes',
          minorWorks: letter.minorWorks.map((row, i) => ({ no: String(i + 1), ...row })),
        }
      : {}),
  };
}

/**
 * The fields of the letter step that are the department's, not the certifier's, when the letter is on
 * record: its reference, its date and the items of Category 1 and 2 (each item's compliance and remark
 * are the certifier's). docs/decisions/021-self-certification.md, "Certified against the letter issued".
 */
export const ISSUED_LETTER_FIELDS = ['lorReference', 'lorDate', 'lorCategory1', 'lorCategory2'] as const;
export type IssuedLetterField = (typeof ISSUED_LETTER_FIELDS)[number];

/** The letter as a self-certification's answers state it: the reference, the date, the items' texts. */
export interface LetterAsCertified {
  reference: unknown;
  date: unknown;
  category1: unknown;
  category2: unknown;
}

/** The letter of a self-certification's answers, or undefined when they carry none of its fields. */
export function letterOfAnswers(answers: Readonly<Record<string, unknown>>): LetterAsCertified | undefined {
  if (ISSUED_LETTER_FIELDS.every((id) => answers[id] === undefined)) return undefined;
  return {
    reference: answers.lorReference,
    date: answers.lorDate,
    category1: answers.lorCategory1,
    category2: answers.lorCategory2,
  };
}

/** Text compared as a person reads it: full width folded, runs of white space as one space. */
const plain = (v: unknown) => (typeof v === 'string' ? v.normalize('NFKC').replace(/\s+/g, ' ').trim() : null);
const reference = (v: unknown) => {
  const text = plain(v);
  return text === null ? null : (parseBdReference(text)?.value ?? text);
};
const itemsOf = (rows: unknown): (string | null)[] | null =>
  Array.isArray(rows)
    ? rows.map((row) => plain(typeof row === 'object' && row !== null ? (row as { item?: unknown }).item : row))
    : rows === undefined || rows === null
      ? []
      : null;
const sameItems = (a: (string | null)[] | null, b: (string | null)[] | null) =>
  a !== null && b !== null && a.length === b.length && a.every((x, i) => x !== null && x === b[i]);

/**
 * The first field of the letter step whose answer is not the letter as issued (the reference, the date,
 * an item of Category 1 or 2 changed, removed or added, in the letter's order), or null when the answers
 * state exactly the letter the department issued (docs/flows/case-rules.md, `lorRevised`).
 */
export function letterDifference(issued: IssuedLetter, answers: LetterAsCertified): IssuedLetterField | null {
  if (reference(answers.reference) !== reference(issued.bdReference)) return 'lorReference';
  if (plain(answers.date) !== plain(issued.date)) return 'lorDate';
  if (!sameItems(itemsOf(answers.category1), itemsOf(issued.category1))) return 'lorCategory1';
  if (!sameItems(itemsOf(answers.category2), itemsOf(issued.category2))) return 'lorCategory2';
  return null;
}

/**
 * The letter step's answers with the letter as issued now: the reference, the date and the items are the
 * letter's; an item whose text is unchanged keeps the compliance and remark the certifier gave, a new or
 * changed item comes without (the wizard's prefill, and the refresh after a `lorRevised` refusal).
 */
export function withIssuedLetter(
  answers: Readonly<Record<string, unknown>>,
  letter: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const id of ISSUED_LETTER_FIELDS) {
    const issued = letter[id];
    if (issued === undefined) continue;
    if (!Array.isArray(issued) || !Array.isArray(answers[id])) {
      out[id] = issued;
      continue;
    }
    const given = (answers[id] as unknown[]).filter(
      (r): r is Record<string, unknown> => typeof r === 'object' && r !== null,
    );
    out[id] = (issued as Record<string, unknown>[]).map((row) => {
      const same = given.find((g) => plain(g.item) !== null && plain(g.item) === plain(row.item));
      return same ? { ...row, status: same.status ?? '', remark: same.remark ?? '' } : row;
    });
  }
  return out;
}

/** May a self-certification of this form certify a case of that form code? */
export function certifiesCaseForm(key: SelfCertKey, caseFormCode: string): boolean {
  return (SELF_CERT_CASE_FORMS[key] as readonly string[]).includes(caseFormCode);
}

/**
 * POST /api/drafts/:applicationNo/check-case: the case a self-certification names, checked when the
 * wizard leaves the step holding it (and again with the certifier on leaving Part B), docs/flows/apply.md.
 * The certifier's identity and number are sent only from the step that holds them, the letter's
 * reference, date and items only from the letter step.
 */
const letterItemSchema = z.object({ item: z.string().max(500) }).loose();

export const caseCheckSchema = z.object({
  answers: z.object({
    caseApplicationNo: applicationNoSchema,
    certifierIdentity: z.enum(['ap', 'rse']).optional(),
    certifierRegNo: z.string().max(40).optional(),
    // From the letter step: the letter as the answers state it, compared with the letter issued.
    lorReference: z.string().max(40).optional(),
    lorDate: z.string().max(20).optional(),
    lorCategory1: z.array(letterItemSchema).max(30).optional(),
    lorCategory2: z.array(letterItemSchema).max(30).optional(),
  }),
  lang: langSchema.optional(),
});
export type CaseCheckRequest = z.infer<typeof caseCheckSchema>;
