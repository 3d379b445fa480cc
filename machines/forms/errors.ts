import type { z } from 'zod';
import { formatDateParams } from '../rules/dates';
import { isLanguage } from '../rules/language';

/**
 * The error shape of the forms, the same in the browser and in the API's 400 answers. A message is
 * never text: `message` is an i18n key with its namespace (`forms:errors.required`) and `params` its
 * interpolation values. A param that is itself a message key (`field`, the label of the field in
 * error) is written with its namespace too (`forms:fields.applicant.email`) and is translated first:
 *
 *   { path: ['applicantEmail'], fieldId: 'applicantEmail', message: 'forms:errors.required',
 *     params: { field: 'forms:fields.applicant.email' } }   →   "Email Address is required"
 *
 * `path` locates the answer: `['premisesAddress', 'zh']` for a part of an address, `['minorWorks', 2,
 * 'item']` for a cell of a table (row index as sent, counting from 0; `params.row` counts from 1).
 */
export type IssueParams = Readonly<Record<string, string | number>>;

export interface FormIssue {
  path: readonly (string | number)[];
  /** The answer's field id (the first element of `path`); '' for an answer that is not an object. */
  fieldId: string;
  message: string;
  params: IssueParams;
}

/** An issue before it has its place in the answers: path below the field, message, params. */
export interface RawIssue {
  path: readonly (string | number)[];
  message: string;
  params: IssueParams;
}

/** The namespace of every key in the definitions. */
export const FORMS_NS = 'forms';

/** A definition's key (`fields.applicant.email`) as a key with its namespace (`forms:fields...`). */
export const qualify = (key: string): string => `${FORMS_NS}:${key}`;

export const ERRORS = {
  notObject: qualify('errors.notObject'),
  invalidType: qualify('errors.invalidType'),
  required: qualify('errors.required'),
  tooLong: qualify('errors.tooLong'),
  unprintable: qualify('errors.unprintable'),
  englishOnly: qualify('errors.englishOnly'),
  needsChinese: qualify('errors.needsChinese'),
  invalidEmail: qualify('errors.invalidEmail'),
  invalidMobile: qualify('errors.invalidMobile'),
  invalidPhone: qualify('errors.invalidPhone'),
  invalidFixedLine: qualify('errors.invalidFixedLine'),
  invalidHkic: qualify('errors.invalidHkic'),
  invalidDate: qualify('errors.invalidDate'),
  invalidNumber: qualify('errors.invalidNumber'),
  notWholeNumber: qualify('errors.notWholeNumber'),
  numberTooSmall: qualify('errors.numberTooSmall'),
  numberTooLarge: qualify('errors.numberTooLarge'),
  invalidOption: qualify('errors.invalidOption'),
  agreeTerms: qualify('errors.agreeTerms'),
  agreeRegistration: qualify('errors.agreeRegistration'),
  tooFewRows: qualify('errors.tooFewRows'),
  tooManyRows: qualify('errors.tooManyRows'),
  rowRequired: qualify('errors.rowRequired'),
  rowTooLong: qualify('errors.rowTooLong'),
  rowInvalidNumber: qualify('errors.rowInvalidNumber'),
  rowInvalidOption: qualify('errors.rowInvalidOption'),
  documentsMissing: qualify('errors.documentsMissing'),
  // Self-certification and the Letter of Requirements (docs/decisions/021-self-certification.md).
  rowDuplicate: qualify('errors.rowDuplicate'),
  rowEmpty: qualify('errors.rowEmpty'),
  rowNotWholeNumber: qualify('errors.rowNotWholeNumber'),
  rowMinorWorksItem: qualify('errors.rowMinorWorksItem'),
  rowSubmissionNo: qualify('errors.rowSubmissionNo'),
  bdReference: qualify('errors.bdReference'),
  registrationNumber: qualify('errors.registrationNumber'),
  registrationIdentity: qualify('errors.registrationIdentity'),
  registrationExpired: qualify('errors.registrationExpired'),
  dateInFuture: qualify('errors.dateInFuture'),
  dateInPast: qualify('errors.dateInPast'),
  applicationNo: qualify('errors.applicationNo'),
} as const;

/** The issues of a failed parse by `schemaFor` / `draftSchemaFor`, in the shape above. */
export function toFormIssues(error: z.ZodError): FormIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const params = 'params' in issue && issue.params ? (issue.params as IssueParams) : {};
    return { path, fieldId: path.length > 0 ? String(path[0]) : '', message: issue.message, params };
  });
}

/** An i18next-like `t`: the UI passes i18next's, the PDF and the tests their own. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * An issue as text in the page's language: its `field` param (a label key) is translated first, and a date
 * param (`2026-12-01`) is written as a person reads it in `language` (machines/rules/dates.ts).
 */
export function issueText(
  issue: Pick<FormIssue, 'message' | 'params'>,
  t: Translate,
  language?: string,
): string {
  const params: Record<string, unknown> =
    language && isLanguage(language) ? formatDateParams(issue.params, language) : { ...issue.params };
  if (typeof params.field === 'string') params.field = t(params.field);
  return t(issue.message, params);
}

/** A stable element id for the input an issue points at: the error summary links to `#<id>`. */
export function fieldDomId(path: readonly (string | number)[]): string {
  return `field-${path.join('-')}`;
}
