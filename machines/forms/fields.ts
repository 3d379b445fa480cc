import { linesOf } from './check';
import type { Condition, Field, FormDefinition, FormSteps, Section, WizardStep } from './types';

/**
 * Walking a definition: its fill steps, its fields, and which of them apply to a set of answers.
 * The schema, the wizard's screens, the preview and the PDF all use these, so a condition means the
 * same everywhere.
 */

export type FillStep = Extract<WizardStep, { kind: 'fill' }>;

/** A field with the section and the fill step it sits in. */
export interface PlacedField {
  field: Field;
  section: Section;
  step: FillStep;
}

/** The answers of a draft or an application: field id → answer. */
export type Answers = Readonly<Record<string, unknown>>;

export function fillSteps(definition: FormSteps): FillStep[] {
  return definition.steps.filter((s): s is FillStep => s.kind === 'fill');
}

/**
 * The fields of a form in order, or of one fill step when `stepId` is given (throws for an id that is
 * not a fill step of the form, a programming error).
 */
export function fieldsOf(definition: FormSteps, stepId?: string): PlacedField[] {
  const steps = fillSteps(definition);
  const chosen = stepId === undefined ? steps : steps.filter((s) => s.id === stepId);
  if (stepId !== undefined && chosen.length === 0) {
    throw new Error(`form ${definition.code} has no fill step ${stepId}`);
  }
  return chosen.flatMap((step) =>
    step.sections.flatMap((section) => section.fields.map((field) => ({ field, section, step }))),
  );
}

export function fieldById(definition: FormSteps, id: string): PlacedField | undefined {
  return fieldsOf(definition).find((p) => p.field.id === id);
}

function holds(condition: Condition, value: unknown): boolean {
  if ('equals' in condition) return value === condition.equals;
  if ('oneOf' in condition) return typeof value === 'string' && condition.oneOf.includes(value);
  if ('includes' in condition)
    return typeof value === 'string' && linesOf(value).includes(condition.includes);
  return value !== condition.notEquals;
}

/**
 * Which fields apply to these answers: a field applies when its section's and its own condition hold
 * and the field each condition reads applies too (a condition on a field that does not apply reads
 * no answer). Answers the set of field ids that apply.
 */
export function applicableFieldIds(definition: FormSteps, answers: Answers): Set<string> {
  const placed = new Map(fieldsOf(definition).map((p) => [p.field.id, p]));
  const memo = new Map<string, boolean>();
  const applies = (id: string, seen: ReadonlySet<string>): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const p = placed.get(id);
    if (!p || seen.has(id)) return false;
    const next = new Set(seen).add(id);
    const ok = [p.section.when, p.field.when].every(
      (c) => !c || holds(c, applies(c.field, next) ? answers[c.field] : undefined),
    );
    memo.set(id, ok);
    return ok;
  };
  return new Set([...placed.keys()].filter((id) => applies(id, new Set())));
}

/** The documents of the upload step that apply to these answers (a document's `when`, as a field's). */
export function documentsFor(definition: FormDefinition, answers: Answers): FormDefinition['documents'] {
  const applicable = applicableFieldIds(definition, answers);
  return definition.documents.filter(
    (d) => !d.when || holds(d.when, applicable.has(d.when.field) ? answers[d.when.field] : undefined),
  );
}

/** The fields (of one step, if given) that apply to these answers, in order: what is shown and printed. */
export function activeFields(definition: FormSteps, answers: Answers, stepId?: string): PlacedField[] {
  const ids = applicableFieldIds(definition, answers);
  return fieldsOf(definition, stepId).filter((p) => ids.has(p.field.id));
}
