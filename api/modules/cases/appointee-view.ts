import type { CaseData } from '../../../machines/rules/case';

/**
 * What an AP or RSE receives of a case: only what the appointee needs (docs/appointee-visibility.md). The
 * applicant's identity card number, email and mobile and the signed application (its PDF and its full
 * answers) stay with the applicant and the department; this is the server's projection, not a screen's.
 */

/** The answers of the case's information an appointee sees: the premises, and who and what the case is for. */
export const APPOINTEE_ANSWERS = [
  'premisesAddress',
  'applyingAs',
  'applicantNameEn',
  'applicantNameZh',
  'orgNameEn',
  'orgNameZh',
  'schoolNameEn',
  'schoolNameZh',
] as const;

/** The documents of the case an appointee never downloads: the applicant's signed application form. */
export const APPLICANT_ONLY_DOCUMENTS: readonly string[] = ['application'];

export function appointeeView(data: CaseData): CaseData {
  const answers = data.facts.information.answers;
  const kept = Object.fromEntries(
    APPOINTEE_ANSWERS.filter((k) => answers[k] !== undefined).map((k) => [k, answers[k]]),
  );
  return {
    ...data,
    facts: { ...data.facts, information: { version: data.facts.information.version, answers: kept } },
    history: data.history.map((row) => ({
      ...row,
      documents: row.documents.filter((d) => !APPLICANT_ONLY_DOCUMENTS.includes(d.kind)),
    })),
  };
}
