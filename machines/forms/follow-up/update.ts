import { applicableFieldIds, fieldsOf, FORM_CATALOGUE } from '..';
import type { CatalogueKey } from '../catalogue-index';
import type { Field, FormDefinition, FormSteps, Section } from '../types';
import { checkAnswer, isEmptyAnswer } from '../values';
import { followUpEntry, type FollowUpEntry } from './entries';
import type { FollowUpDefinition } from './types';

/**
 * Update Application and School / Centre Information (`/form-usi-step1`, the child care centre variants
 * `/form-usi-cccaic2-step1` ...; spec §2 "Update flow"). One definition per variant; each applies to the
 * application forms it lists and becomes, for a case, the form of that case (`forApplication`): the fill
 * sections of the application (its declaration replaced by the update's own tick), prefilled with the
 * case's current version, then a preview of what changes (before → after) and the Update Success on
 * step 2. Nothing changed is refused (`check`, with the version the form was opened on as `base`).
 * No digital signature: docs/decisions/019-case-versions.md.
 */

/** The application's own declaration: it was made (and signed) at submission, and is not asked again. */
const APPLICATION_DECLARATION = 'declaration';
export const UPDATE_CONFIRM_FIELD = 'confirmUpdate';

const updateDeclaration = (centre: boolean): Section => ({
  id: 'updateDeclaration',
  titleKey: 'followUp.update.declarationSection',
  fields: [
    {
      id: UPDATE_CONFIRM_FIELD,
      kind: 'checkbox',
      required: true,
      labelKey: centre ? 'followUp.update.confirmCentre' : 'followUp.update.confirmSchool',
      requiredKey: 'followUp.update.confirmRequired',
    },
  ],
});

/** The fields an update may change: every field of the application's fill sections but its declaration. */
export function updatableSections(form: FormDefinition): Section[] {
  return form.steps.flatMap((s) =>
    s.kind === 'fill' ? s.sections.filter((section) => section.id !== APPLICATION_DECLARATION) : [],
  );
}

export interface AnswerChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** An answer as the schema keeps it ('9123 4567' and '91234567' are one telephone number). */
function normalised(field: Field, value: unknown): unknown {
  const checked = checkAnswer(field, value, 'submit');
  return checked.ok ? checked.value : value;
}

const same = (field: Field, a: unknown, b: unknown) =>
  (isEmptyAnswer(field, a) && isEmptyAnswer(field, b)) ||
  (!isEmptyAnswer(field, a) &&
    !isEmptyAnswer(field, b) &&
    JSON.stringify(normalised(field, a)) === JSON.stringify(normalised(field, b)));

/**
 * What an update changes, field by field in the form's order: every field that applies before or after
 * whose answer differs (an empty answer and a missing one are the same). The update's tick is not a change.
 */
export function changesOf(
  definition: FormSteps,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): AnswerChange[] {
  const was = applicableFieldIds(definition, before);
  const is = applicableFieldIds(definition, after);
  return fieldsOf(definition)
    .map((p) => p.field)
    .filter((f) => f.id !== UPDATE_CONFIRM_FIELD)
    .flatMap((field) => {
      const b = was.has(field.id) ? before[field.id] : undefined;
      const a = is.has(field.id) ? after[field.id] : undefined;
      return same(field, b, a) ? [] : [{ field: field.id, before: b ?? null, after: a ?? null }];
    });
}

/**
 * The answers of the next version: the fields of the update as validated (those that apply now), and what
 * the update does not ask (the application's declaration) as it was. Answers of fields that no longer
 * apply are not carried on.
 */
export function nextVersionAnswers(
  definition: FormSteps,
  base: Readonly<Record<string, unknown>>,
  validated: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const asked = new Set(fieldsOf(definition).map((p) => p.field.id));
  const kept = Object.fromEntries(Object.entries(base).filter(([id]) => !asked.has(id)));
  const { [UPDATE_CONFIRM_FIELD]: _tick, ...answers } = validated;
  return { ...kept, ...answers };
}

/**
 * Stored answers as the form's fields hold them: a number is kept as a number once validated, and a field
 * holds the digits as typed (machines/forms/types.ts AnswerValue).
 */
export function formAnswers(answers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answers).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]),
  );
}

/** The catalogue form of a case by its printed code ('A2', 'CCCAI-C2'). */
export function formOfCase(formCode: string): FormDefinition | undefined {
  return Object.values(FORM_CATALOGUE).find((f) => f.code === formCode);
}

function updateForm(spec: {
  entry: FollowUpEntry;
  code: string;
  forms: readonly CatalogueKey[];
  centre: boolean;
}): FollowUpDefinition {
  const base: FollowUpDefinition = {
    kind: 'followUp',
    ...spec.entry,
    code: spec.code,
    documentType: 'INFORMATION_UPDATE',
    versioned: true,
    applicationForms: spec.forms,
    steps: [
      {
        kind: 'fill',
        id: 'fill',
        titleKey: 'followUp.update.stepTitle',
        sections: [updateDeclaration(spec.centre)],
      },
      { kind: 'preview' },
      { kind: 'done' },
    ],
    prefill: (facts) => formAnswers(facts.information.answers),
  };
  const concrete = new Map<string, FollowUpDefinition>();
  base.forApplication = (formCode) => {
    const form = formOfCase(formCode);
    if (!form || !spec.forms.includes(form.key)) return undefined;
    let made = concrete.get(form.key);
    if (!made) {
      const steps: FollowUpDefinition['steps'] = [
        {
          kind: 'fill',
          id: 'fill',
          titleKey: 'followUp.update.stepTitle',
          sections: [...updatableSections(form), updateDeclaration(spec.centre)],
        },
        { kind: 'preview' },
        { kind: 'done' },
      ];
      made = {
        ...base,
        steps,
        check: (answers, { base: opened }) =>
          opened && changesOf({ code: base.code, steps }, opened, answers).length === 0
            ? [{ field: UPDATE_CONFIRM_FIELD, messageKey: 'followUp.update.errors.noChanges' }]
            : [],
      };
      concrete.set(form.key, made);
    }
    return made;
  };
  return base;
}

export const UPDATE_SCHOOL = updateForm({
  entry: followUpEntry('updateInformation'),
  code: 'USI',
  forms: ['a2', 'b2', 'c2', 'e2', 'f2', 'g2'],
  centre: false,
});
export const UPDATE_CCCAI_C2 = updateForm({
  entry: followUpEntry('updateInformationCccaic2'),
  code: 'USI-CCCAIC2',
  forms: ['cccaiC2'],
  centre: true,
});
export const UPDATE_JOKC02 = updateForm({
  entry: followUpEntry('updateInformationJokc02'),
  code: 'USI-JOKC02',
  forms: ['edbJokc02'],
  centre: true,
});
export const UPDATE_CCCAI_MH3 = updateForm({
  entry: followUpEntry('updateInformationCccaimh3'),
  code: 'USI-CCCAIMH3',
  forms: ['cccaiMh3'],
  centre: true,
});
