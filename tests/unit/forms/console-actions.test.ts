import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ACTION_FORMS,
  answersOf,
  initialValues,
  type ActionFormDefinition,
} from '../../../machines/forms/console-actions';
import { fieldsOf } from '../../../machines/forms/fields';
import { schemaFor } from '../../../machines/forms/schema';
import type { Field } from '../../../machines/forms/types';
import { LANGUAGES } from '../../../machines/rules/language';
import { MINOR_WORKS_ROW_KEYS, minorWorksRowSchema } from '../../../machines/rules/minor-works';
import { CONSOLE_ACTION_SCHEMAS, CONSOLE_EVENTS, eventKey } from '../../../machines/rules/staff';

const context = { today: '2026-03-02', me: 7 };
const fieldIds = (definition: ActionFormDefinition) => fieldsOf(definition).map((p) => p.field.id);

/** Every message key a console form names, with its namespace (`console:fields.note`). */
function keysOf(definition: ActionFormDefinition): string[] {
  const fieldKeys = (f: Field): string[] => [
    f.labelKey,
    ...('options' in f ? f.options.map((o) => o.labelKey) : []),
    ...(f.kind === 'table'
      ? [
          ...f.columns.map((c) => c.labelKey),
          ...(f.rowLabelKey ? [f.rowLabelKey] : []),
          ...(f.wording ? [f.wording.addRowKey, f.wording.removeRowKey] : []),
        ]
      : []),
  ];
  return definition.steps.flatMap((s) => [
    s.titleKey,
    ...s.sections.flatMap((x) => [x.titleKey, ...x.fields.flatMap(fieldKeys)]),
  ]);
}

const messages = (lang: string) =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../i18n/${lang}/console.json`, import.meta.url)), 'utf8'),
  ) as Record<string, unknown>;

const lookup = (table: Record<string, unknown>, key: string): unknown =>
  key
    .replace(/^console:/, '')
    .split('.')
    .reduce<unknown>(
      (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      table,
    );

describe('the console action forms', () => {
  it('has a form for every action, whose fields are the answers its schema takes', () => {
    for (const event of CONSOLE_EVENTS) {
      const definition = ACTION_FORMS[event];
      expect(definition.event, event).toBe(event);
      expect(fieldIds(definition).sort(), event).toEqual(
        Object.keys(CONSOLE_ACTION_SCHEMAS[event].shape).sort(),
      );
    }
  });

  it('names every title, label, option and row wording in en, sc and tc', () => {
    for (const lang of LANGUAGES) {
      const table = messages(lang);
      for (const event of CONSOLE_EVENTS)
        for (const key of keysOf(ACTION_FORMS[event]))
          expect(typeof lookup(table, key), `${lang}: ${key}`).toBe('string');
    }
  });

  it('takes the minor works cells from the one row type', () => {
    const table = fieldsOf(ACTION_FORMS['lor.issue']).find((p) => p.field.kind === 'table')?.field;
    expect(table?.kind === 'table' ? table.columns.map((c) => c.id) : []).toEqual([...MINOR_WORKS_ROW_KEYS]);
    expect(Object.keys(minorWorksRowSchema.shape)).toEqual([...MINOR_WORKS_ROW_KEYS]);
  });

  it('starts a letter on today, a drop-down on its first option and an officer on the one signed in', () => {
    expect(initialValues(ACTION_FORMS['lor.issue'], context)).toEqual({
      bdReference: '',
      date: '2026-03-02',
      category1: '',
      category2: '',
      minorWorks: [],
    });
    expect(initialValues(ACTION_FORMS['inspection.schedule'], context)).toEqual({
      date: '2026-03-02',
      window: 'AM',
      officerId: '7',
    });
    expect(initialValues(ACTION_FORMS['information.request'], context)).toEqual({
      documentTypes: '',
      otherDocument: '',
      note: '',
      replyBy: '',
    });
  });

  it('sends lines as a list, every cell of a row, and text as typed', () => {
    const definition = ACTION_FORMS['lor.issue'];
    const answers = answersOf(definition, {
      ...initialValues(definition, context),
      bdReference: ' BD 2/9123/26',
      category1: 'Provide a second means of escape.\n\n  Fire doors \r\n',
      minorWorks: [{ item: '3.5', description: 'Erection of a canopy' }],
    });
    expect(answers).toEqual({
      bdReference: ' BD 2/9123/26',
      date: '2026-03-02',
      category1: ['Provide a second means of escape.', 'Fire doors'],
      category2: [],
      minorWorks: [{ item: '3.5', description: 'Erection of a canopy', submissionNo: '' }],
    });
  });

  it('sends an officer as a number and leaves a blank optional note out', () => {
    expect(
      answersOf(ACTION_FORMS['case.assign'], initialValues(ACTION_FORMS['case.assign'], context)),
    ).toEqual({
      staffId: 7,
    });
    const record = ACTION_FORMS['inspection.record'];
    expect(answersOf(record, { ...initialValues(record, context), note: '   ' })).toEqual({ result: 'PASS' });
    expect(answersOf(record, { result: 'FAIL', note: 'Exit blocked' })).toEqual({
      result: 'FAIL',
      note: 'Exit blocked',
    });
  });

  it('sends a blank required text, for the API to name it', () => {
    const answers = answersOf(
      ACTION_FORMS['case.reject'],
      initialValues(ACTION_FORMS['case.reject'], context),
    );
    expect(answers).toEqual({ reason: '' });
    const parsed = CONSOLE_ACTION_SCHEMAS['case.reject'].safeParse(answers);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['reason', 'staff.required'],
    ]);
  });

  it('sends the document types ticked, and the description of Other only when Other is ticked', () => {
    const definition = ACTION_FORMS['information.request'];
    const typed = { ...initialValues(definition, context), replyBy: '2026-03-16' };
    const withOther = answersOf(definition, {
      ...typed,
      documentTypes: 'layoutPlans\nother',
      otherDocument: 'Fire Service Installation certificate',
    });
    expect(withOther).toEqual({
      documentTypes: ['layoutPlans', 'other'],
      otherDocument: 'Fire Service Installation certificate',
      replyBy: '2026-03-16',
    });
    expect(CONSOLE_ACTION_SCHEMAS['information.request'].safeParse(withOther).success).toBe(true);
    // Other unticked: the description typed before is not sent.
    expect(
      answersOf(definition, { ...typed, documentTypes: 'layoutPlans', otherDocument: 'Fire certificate' }),
    ).toEqual({ documentTypes: ['layoutPlans'], replyBy: '2026-03-16' });
    // Other ticked and not described: sent blank, for the API to name it.
    const blank = answersOf(definition, { ...typed, documentTypes: 'other' });
    const parsed = CONSOLE_ACTION_SCHEMAS['information.request'].safeParse(blank);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['otherDocument', 'staff.required'],
    ]);
  });

  it('is read by the catalogue like any form: lines answer a list, an officer a number', () => {
    const letter = schemaFor(ACTION_FORMS['lor.issue']).parse({
      bdReference: 'BD 2/9123/26',
      date: '2026-03-16',
      category1: 'Fire doors\n\n  Exit signs ',
      category2: '',
      minorWorks: [],
    });
    expect(letter).toMatchObject({ category1: ['Fire doors', 'Exit signs'] });
    // Tick boxes answer the values ticked, and only the options.
    const ticks = schemaFor({
      code: 'ticks',
      steps: [
        {
          kind: 'fill',
          id: 'fill',
          titleKey: 'x',
          sections: [
            {
              id: 's',
              titleKey: 'x',
              fields: [
                {
                  kind: 'checkboxes',
                  id: 'kinds',
                  labelKey: 'x',
                  options: ['a', 'b', 'c'].map((value) => ({ value, labelKey: value })),
                },
              ],
            },
          ],
        },
      ],
    });
    expect(ticks.parse({ kinds: 'a\nc' })).toEqual({ kinds: ['a', 'c'] });
    expect(ticks.safeParse({ kinds: 'a\nz' }).success).toBe(false);
    expect(schemaFor(ACTION_FORMS['case.assign']).parse({ staffId: '12' })).toEqual({ staffId: 12 });
    expect(schemaFor(ACTION_FORMS['case.assign']).safeParse({ staffId: 'me' }).success).toBe(false);
  });

  it('keys an event in messages without its dots', () => {
    expect(CONSOLE_EVENTS.map(eventKey)).toContain('lorIssue');
    expect(eventKey('inspection.schedule')).toBe('inspectionSchedule');
  });
});
