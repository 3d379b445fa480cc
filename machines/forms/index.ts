import { A2 } from './a2';
import { B2 } from './b2';
import { C2 } from './c2';
import { CCCAI_C2 } from './cccai-c2';
import { CCCAI_MH3 } from './cccai-mh3';
import { E2 } from './e2';
import { EDB_JOKC02 } from './edb-jokc02';
import { F2 } from './f2';
import { G2 } from './g2';
import { SCC_1 } from './scc-1';
import { SCC_2 } from './scc-2';
import { SCN_1 } from './scn-1';
import { SCS_1 } from './scs-1';
import { SCS_2 } from './scs-2';
import type { FormDefinition } from './types';
import type { CatalogueKey } from './catalogue-index';

/**
 * The nine application forms and the five self-certification forms, keyed by their key in the catalogue
 * index (catalogue-index.ts, groups 'apply' and 'selfCert'): a form of the index left out here, or one here
 * that is not in the index, fails to compile. docs/forms.md.
 */
export const FORM_CATALOGUE: Readonly<Record<CatalogueKey, FormDefinition>> = {
  a2: A2,
  b2: B2,
  c2: C2,
  e2: E2,
  f2: F2,
  g2: G2,
  cccaiC2: CCCAI_C2,
  edbJokc02: EDB_JOKC02,
  cccaiMh3: CCCAI_MH3,
  scs1: SCS_1,
  scs2: SCS_2,
  scc1: SCC_1,
  scc2: SCC_2,
  scn1: SCN_1,
};

/** Is this string (a stored draft's, a request's) the key of a form of the catalogue? */
export function isCatalogueKey(key: string): key is CatalogueKey {
  return Object.hasOwn(FORM_CATALOGUE, key);
}

export const CATALOGUE_KEYS: CatalogueKey[] = Object.keys(FORM_CATALOGUE).filter(isCatalogueKey);

const bySlug = new Map(Object.values(FORM_CATALOGUE).map((d) => [d.slug, d]));

/** The definition of a form by its key (`a2`, `cccaiC2` ...); undefined for a form not in the catalogue. */
export function formByKey(key: string): FormDefinition | undefined {
  return isCatalogueKey(key) ? FORM_CATALOGUE[key] : undefined;
}

/** The definition of a form by its route slug (`a2`, `cccai-c2` ...). */
export function formBySlug(slug: string): FormDefinition | undefined {
  return bySlug.get(slug);
}

export type * from './types';
export { fieldsOf, fillSteps, activeFields, applicableFieldIds, fieldById, documentsFor } from './fields';
export type { Answers, FillStep, PlacedField } from './fields';
export { schemaFor, draftSchemaFor, missingDocuments } from './schema';
export type { AnswerSchema, SchemaOptions } from './schema';
export { toFormIssues, issueText, fieldDomId, ERRORS } from './errors';
export type { FormIssue, IssueParams, Translate } from './errors';
export { maxLengthOf, isEmptyAnswer } from './values';
export { linesOf } from './check';
export { answerText } from './answer-text';
export type { AnswerLine } from './answer-text';
export * from './limits';
