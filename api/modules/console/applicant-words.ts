import * as ToSimplified from 'opencc-js/t2cn';
import * as ToTraditional from 'opencc-js/cn2t';
import { submitterOf, type CaseActor } from '../../../machines/rules/case-lifecycle';
import { WRITTEN_FIELDS, type ApplicantWordsData, type WrittenText } from '../../../machines/rules/staff-words';
import { documentTypesFor } from '../../../machines/forms/follow-up/submit-document';

/**
 * The applicant's, AP's or RSE's own words on the officer's case page
 * (docs/decisions/037-applicant-words-in-console.md): what they wrote with each follow-up (a document's
 * description, the note to the officer, the inspection request's dates, site contact and access notes, the
 * withdrawal's reason), exactly as stored in the follow-up's answers, never translated; with who and when;
 * and the language each text is in as its characters show it, so that the console marks it with `lang`.
 */

const toSimplified = ToSimplified.Converter({ from: 'hk', to: 'cn' });
const toTraditional = ToTraditional.Converter({ from: 'cn', to: 'hk' });

const HAN = /\p{Script=Han}/u;
const LATIN = /\p{Script=Latin}/u;

/**
 * The BCP 47 tag of a text's language, as its characters show it: Chinese characters make it Chinese, in
 * Traditional script when some of them exist only in Traditional (OpenCC Hong Kong → Mainland changes the
 * text), in Simplified when some exist only in Simplified, else (characters common to both) as `hint`
 * (the language the party used the portal in, or the case's); Latin letters without Chinese make it
 * English; anything else (digits, a date, a telephone number) has no language of its own: null.
 */
export function textLanguage(text: string, hint: string): string | null {
  if (HAN.test(text)) {
    if (toSimplified(text) !== text) return 'zh-Hant';
    if (toTraditional(text) !== text) return 'zh-Hans';
    return hint === 'sc' ? 'zh-Hans' : 'zh-Hant';
  }
  return LATIN.test(text) ? 'en' : null;
}

const PARTIES = new Set<string>(['applicant', 'ap', 'rse']);

/** A follow-up as stored (case_actions): its reference, answers, actor, language and time. */
export interface StoredFollowUp {
  reference: string;
  formKey: string;
  answers: unknown;
  actor: string;
  language: string;
  createdAt: Date;
}

/**
 * What a party wrote with a follow-up: the WRITTEN_FIELDS of its answers that hold a text, in that order,
 * as written. Null for a follow-up of the department (an officer's action) or one with nothing written.
 */
export function wordsOf(action: StoredFollowUp): ApplicantWordsData | null {
  if (!PARTIES.has(action.actor)) return null;
  const answers = (action.answers ?? {}) as Record<string, unknown>;
  const texts: WrittenText[] = [];
  for (const field of WRITTEN_FIELDS) {
    const value = answers[field];
    if (typeof value !== 'string' || value.trim() === '') continue;
    texts.push({ field, text: value, lang: textLanguage(value, action.language) });
  }
  if (texts.length === 0) return null;
  return {
    by: submitterOf(action.actor as CaseActor),
    at: action.createdAt.toISOString(),
    formKey: action.formKey,
    texts,
  };
}

/**
 * The i18n key (namespace `forms`) of a case document's type name: the catalogue of the case's form's
 * documents that the applicant chose from (Submit Supporting Document's list, "Other" included), else the
 * documents' own keys; null for the signed application form, which the console names itself.
 */
export function documentTypeKey(formCode: string, kind: string): string | null {
  if (kind === 'application') return null;
  const listed = documentTypesFor(formCode).find((o) => o.value === kind);
  return listed ? listed.labelKey : `documents.${kind}`;
}
