import type { z } from 'zod';
import { MINOR_WORKS_MAX_ROWS, MINOR_WORKS_ROW_KEYS } from '../rules/minor-works';
import {
  CONSOLE_ACTION_SCHEMAS,
  OTHER_DOCUMENT,
  OTHER_DOCUMENT_MAX,
  eventKey,
  type ConsoleEvent,
} from '../rules/staff';
import { isBlank, linesOf } from './check';
import { applicableFieldIds, fieldsOf, type FillStep } from './fields';
import type { AnswerValue, Field, FormSteps } from './types';

/**
 * The forms of the console's actions (docs/console.md), in the catalogue's format: a definition per
 * lifecycle event, one fill step of one section whose fields are of the catalogue's kinds, rendered by the
 * applicant's field renderer (ui/flows/apply/FieldRenderer.tsx). A field's id is the key of its answer in
 * the action's body; the API checks the body with the action's schema of CONSOLE_ACTION_SCHEMAS
 * (machines/rules/staff.ts), and the console shows the API's messages (it checks nothing itself).
 * Labels are `console:fields.<id>`, options `console:fields.<value>`.
 */

/** The keys of an action's answers, as its schema takes them. */
type AnswerKey<E extends ConsoleEvent> = keyof z.input<(typeof CONSOLE_ACTION_SCHEMAS)[E]> & string;

/** A field whose id is `K`. */
type FieldWithId<K extends string> = Field & { id: K };

/** A field of an action's form: its id is a key of the action's answers (a typo does not compile). */
type ActionField<E extends ConsoleEvent> = FieldWithId<AnswerKey<E>>;

/** What the answers a form starts with come from: today in Hong Kong and the signed-in officer. */
export interface ActionFormContext {
  today: string;
  me: number;
  /** The ids of the case's open information requests, oldest first. */
  openRequests?: readonly number[];
}

export interface ActionFormDefinition extends FormSteps {
  event: ConsoleEvent;
  steps: readonly [FillStep];
  /** Answers to start with beyond each kind's own (today for the date of a letter or an inspection). */
  prefill?: (context: ActionFormContext) => Readonly<Record<string, string>>;
}

function actionForm<E extends ConsoleEvent>(
  event: E,
  fields: readonly ActionField<E>[],
  prefill?: ActionFormDefinition['prefill'],
): ActionFormDefinition {
  const titleKey = `console:events.${eventKey(event)}`;
  return {
    code: eventKey(event),
    event,
    steps: [{ kind: 'fill', id: 'fill', titleKey, sections: [{ id: eventKey(event), titleKey, fields }] }],
    ...(prefill ? { prefill } : {}),
  };
}

const labelKey = (id: string) => `console:fields.${id}`;

/** A one-line text; a date is one too, typed `YYYY-MM-DD` as its label says. */
const text = <K extends string>(id: K): FieldWithId<K> => ({
  kind: 'text',
  id,
  labelKey: labelKey(id),
  required: true,
});

/** A text area of four rows; blank and not required, it is left out of the answers. */
const area = <K extends string>(id: K, required: boolean): FieldWithId<K> => ({
  kind: 'text',
  id,
  labelKey: labelKey(id),
  rows: 4,
  required,
});

/** Items one a line (the API takes the list). */
const lines = <K extends string>(id: K): FieldWithId<K> => ({ kind: 'lines', id, labelKey: labelKey(id) });

/**
 * The document types a request may name: tick boxes of the case's form's documents and "Other", their
 * options from the API with the case (`requestableDocuments`), not the definition.
 */
const documentTypes: FieldWithId<'documentTypes'> = {
  kind: 'checkboxes',
  id: 'documentTypes',
  labelKey: labelKey('documentTypes'),
  options: [],
};

/** What "Other" asks for, shown and required when Other is ticked. */
const otherDocument: FieldWithId<'otherDocument'> = {
  kind: 'text',
  id: 'otherDocument',
  labelKey: labelKey('otherDocument'),
  hint: true,
  required: true,
  maxLength: OTHER_DOCUMENT_MAX,
  when: { field: 'documentTypes', includes: OTHER_DOCUMENT },
};

/** A drop-down of the codes the action's schema takes, starting at the first. */
const select = <K extends string>(id: K, codes: readonly string[]): FieldWithId<K> => ({
  kind: 'select',
  id,
  labelKey: labelKey(id),
  required: true,
  options: codes.map((value) => ({ value, labelKey: labelKey(value) })),
});

/** An officer, starting at the signed-in one. */
const officer = <K extends string>(id: K): FieldWithId<K> => ({
  kind: 'officer',
  id,
  labelKey: labelKey(id),
  required: true,
});

/** One of the case's open information requests (the console lists them with the case). */
const openRequest = <K extends string>(id: K): FieldWithId<K> => ({
  kind: 'openRequest',
  id,
  labelKey: labelKey(id),
  required: true,
});

/** The minor works rows of a letter: the cells of `MinorWorksRow` (machines/rules/minor-works.ts). */
const minorWorks: FieldWithId<'minorWorks'> = {
  kind: 'table',
  id: 'minorWorks',
  labelKey: labelKey('minorWorks'),
  maxRows: MINOR_WORKS_MAX_ROWS,
  rowLabelKey: labelKey('row'),
  wording: { addRowKey: labelKey('addRow'), removeRowKey: labelKey('removeRow') },
  columns: MINOR_WORKS_ROW_KEYS.map((id) => ({ id, labelKey: labelKey(id), kind: 'text', required: true })),
};

const today = ({ today }: ActionFormContext) => ({ date: today });
const S = CONSOLE_ACTION_SCHEMAS;

export const ACTION_FORMS: Readonly<Record<ConsoleEvent, ActionFormDefinition>> = {
  'case.assign': actionForm('case.assign', [officer('staffId')]),
  'case.acknowledge': actionForm('case.acknowledge', []),
  'case.examine': actionForm('case.examine', []),
  'lor.issue': actionForm(
    'lor.issue',
    [text('bdReference'), text('date'), lines('category1'), lines('category2'), minorWorks],
    today,
  ),
  'compliance.record': actionForm('compliance.record', [area('note', false)]),
  'inspection.schedule': actionForm(
    'inspection.schedule',
    [text('date'), select('window', S['inspection.schedule'].shape.window.options), officer('officerId')],
    today,
  ),
  'inspection.reschedule': actionForm('inspection.reschedule', [
    text('date'),
    select('window', S['inspection.reschedule'].shape.window.options),
    officer('officerId'),
    area('reason', true),
  ]),
  'inspection.cancel': actionForm('inspection.cancel', [area('reason', true)]),
  'inspection.record': actionForm('inspection.record', [
    select('result', S['inspection.record'].shape.result.options),
    area('note', false),
  ]),
  'certificate.issue': actionForm('certificate.issue', [
    select('kind', S['certificate.issue'].shape.kind.options),
    area('remarks', false),
  ]),
  'case.reject': actionForm('case.reject', [area('reason', true)]),
  'case.close': actionForm('case.close', []),
  'lor.withdraw': actionForm('lor.withdraw', [area('reason', true)]),
  'certificate.revoke': actionForm('certificate.revoke', [area('reason', true)]),
  'case.reopen': actionForm('case.reopen', [area('reason', true)]),
  'information.request': actionForm('information.request', [
    documentTypes,
    otherDocument,
    area('note', false),
    text('replyBy'),
  ]),
  'information.extend': actionForm('information.extend', [
    openRequest('requestId'),
    text('replyBy'),
    area('reason', false),
  ]),
  'information.withdraw': actionForm('information.withdraw', [
    openRequest('requestId'),
    area('reason', false),
  ]),
  'message.send': actionForm('message.send', [area('body', true)]),
};

/** What an action's form holds: field id → the value as typed or chosen (the catalogue's AnswerValue). */
export type ActionValues = Record<string, AnswerValue>;

/**
 * The values a form starts with: an officer field the signed-in officer, a drop-down its first option, a
 * table no row, the rest empty; then the definition's `prefill`.
 */
export function initialValues(definition: ActionFormDefinition, context: ActionFormContext): ActionValues {
  const values: ActionValues = {};
  for (const { field } of fieldsOf(definition))
    values[field.id] =
      field.kind === 'officer'
        ? String(context.me)
        : field.kind === 'openRequest'
          ? context.openRequests?.[0] === undefined
            ? ''
            : String(context.openRequests[0])
          : field.kind === 'select'
            ? (field.options[0]?.value ?? '')
            : field.kind === 'table'
              ? []
              : '';
  return { ...values, ...definition.prefill?.(context) };
}

/**
 * The answers the API takes, from what the form holds: a list of the lines typed or the boxes ticked, an
 * officer's id as a number, every cell of a table row (empty when not typed), text as typed but left out
 * when blank and not required; a field whose condition does not hold (the description of "Other" when
 * Other is not ticked) is left out. The API trims and checks.
 */
export function answersOf(definition: ActionFormDefinition, values: ActionValues): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  const applicable = applicableFieldIds(definition, values);
  for (const { field } of fieldsOf(definition)) {
    if (!applicable.has(field.id)) continue;
    const value = values[field.id];
    if (field.kind === 'table') {
      const rows = Array.isArray(value) ? value : [];
      answers[field.id] = rows.map((row) =>
        Object.fromEntries(field.columns.map((c) => [c.id, row[c.id] ?? ''])),
      );
    } else if (typeof value !== 'string') continue;
    else if (field.kind === 'lines' || field.kind === 'checkboxes') answers[field.id] = linesOf(value);
    else if (field.kind === 'officer' || field.kind === 'openRequest') answers[field.id] = Number(value);
    else if (!field.required && isBlank(value)) continue;
    else answers[field.id] = value;
  }
  return answers;
}
