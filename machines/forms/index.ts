import type { FormKey } from '../routes';
import { A2 } from './a2';
import { B2 } from './b2';
import { C2 } from './c2';
import { CCCAI_C2 } from './cccai-c2';
import { CCCAI_MH3 } from './cccai-mh3';
import { E2 } from './e2';
import { EDB_JOKC02 } from './edb-jokc02';
import { F2 } from './f2';
import { G2 } from './g2';
import type { FormDefinition } from './types';

/** The nine application forms, keyed by their key in the catalogue index (catalogue-index.ts). docs/forms.md. */
export type CatalogueKey = Extract<
  FormKey,
  'a2' | 'b2' | 'c2' | 'e2' | 'f2' | 'g2' | 'cccaiC2' | 'edbJokc02' | 'cccaiMh3'
>;

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
};

export const CATALOGUE_KEYS = Object.keys(FORM_CATALOGUE) as CatalogueKey[];

const bySlug = new Map(Object.values(FORM_CATALOGUE).map((d) => [d.slug, d]));

/** The definition of a form by its key (`a2`, `cccaiC2` ...); undefined for a form not in the catalogue. */
export function formByKey(key: string): FormDefinition | undefined {
  return Object.hasOwn(FORM_CATALOGUE, key) ? FORM_CATALOGUE[key as CatalogueKey] : undefined;
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
export { answerText } from './answer-text';
export type { AnswerLine } from './answer-text';
export * from './limits';
