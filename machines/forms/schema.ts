import { z } from 'zod';
import { addressRequiredIssues } from './composite';
import { ERRORS, qualify, type RawIssue } from './errors';
import { applicableFieldIds, fieldsOf, type Answers } from './fields';
import { checkAnswer, isEmptyAnswer } from './values';
import { parseRegistrationNumber } from '../rules/registration';
import type { Field, FormDefinition, FormSteps } from './types';

/**
 * The zod schemas of a form, derived from its definition and used by both the browser (on "Next" and
 * on blur) and the API (on submit and on every draft save). Messages and their shape: errors.ts.
 *
 * - `schemaFor(definition)` checks a complete application (every fill step); with `{ stepId }` one fill
 *   step. It takes the whole answers object (conditions may read answers of other steps) and answers
 *   only the fields it checks, normalised, and only those whose condition holds: a field whose `when`
 *   (or its section's) does not hold is neither required nor kept.
 * - `draftSchemaFor(definition)` is the lenient shape of an unfinished draft: every field optional,
 *   types and lengths checked, formats not (an email half typed is saved as typed), unknown keys
 *   stripped, conditions not applied (an answer hidden by switching a radio comes back when it is
 *   switched back).
 */

export interface SchemaOptions {
  /** Check one fill step only (its `id`: 'fill', 'fillPartA' ...). */
  stepId?: string;
}

/** The answers as the schemas answer them: field id → value. */
export type AnswerSchema = z.ZodType<Record<string, unknown>, unknown>;

const answersObject = () => z.record(z.string(), z.unknown(), { error: ERRORS.notObject });

const at = (field: Field, issues: readonly RawIssue[]) =>
  issues.map((i) => ({
    code: 'custom' as const,
    message: i.message,
    params: { ...i.params },
    path: [field.id, ...i.path],
  }));

/** The issues of a required field left empty. */
function requiredIssues(field: Field): RawIssue[] {
  if (field.kind === 'address') return addressRequiredIssues();
  if (field.requiredKey) return [{ path: [], message: qualify(field.requiredKey), params: {} }];
  return [{ path: [], message: ERRORS.required, params: { field: qualify(field.labelKey) } }];
}

export function schemaFor(definition: FormSteps, options: SchemaOptions = {}): AnswerSchema {
  const placed = fieldsOf(definition, options.stepId);
  return answersObject().transform((answers: Answers, ctx) => {
    const applicable = applicableFieldIds(definition, answers);
    const out: Record<string, unknown> = {};
    for (const { field } of placed) {
      if (!applicable.has(field.id)) continue;
      const value = answers[field.id];
      if (isEmptyAnswer(field, value)) {
        if (field.required) for (const issue of at(field, requiredIssues(field))) ctx.addIssue(issue);
        continue;
      }
      const checked = checkAnswer(field, value, 'submit');
      if (!checked.ok) for (const issue of at(field, checked.issues)) ctx.addIssue(issue);
      else {
        const related = relationIssues(field, checked.value, answers);
        if (related.length > 0) for (const issue of at(field, related)) ctx.addIssue(issue);
        else out[field.id] = checked.value;
      }
    }
    return out;
  });
}

/**
 * Rules between answers: a registration number must be on the register (AP or RSE) the field named by
 * its `identityField` answers (machines/rules/registration.ts, `identityMismatch`).
 */
function relationIssues(field: Field, value: unknown, answers: Answers): RawIssue[] {
  if (field.kind !== 'text' || field.format !== 'registrationNumber' || !field.identityField) return [];
  const identity = answers[field.identityField];
  const parsed = typeof value === 'string' ? parseRegistrationNumber(value) : undefined;
  if (!parsed || (identity !== 'ap' && identity !== 'rse') || parsed.identity === identity) return [];
  return [{ path: [], message: ERRORS.registrationIdentity, params: { field: qualify(field.labelKey) } }];
}

export function draftSchemaFor(definition: FormDefinition): AnswerSchema {
  const placed = fieldsOf(definition);
  return answersObject().transform((answers: Answers, ctx) => {
    const out: Record<string, unknown> = {};
    for (const { field } of placed) {
      const value = answers[field.id];
      if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
        continue;
      const checked = checkAnswer(field, value, 'draft');
      if (checked.ok) out[field.id] = checked.value;
      else for (const issue of at(field, checked.issues)) ctx.addIssue(issue);
    }
    return out;
  });
}

/**
 * The required documents not among the uploaded document ids: empty when every required one is there,
 * else the upload step shows `ERRORS.documentsMissing` ('Please submit all required documents').
 */
export function missingDocuments(definition: FormDefinition, uploaded: Iterable<string>): string[] {
  const have = new Set(uploaded);
  return definition.documents.filter((d) => d.required && !have.has(d.id)).map((d) => d.id);
}
