import type { ConsoleEvent } from '../../machines/rules/staff';

/**
 * The forms of the console's actions, as data (like the catalogue's forms): each field's name (the key of
 * the answer the API's schema of machines/rules/staff.ts checks), its kind, and for choices the option
 * codes. Labels are `console:fields.<name>`. `lines` is a textarea whose lines become a list; `minorWorks`
 * the rows of spec §3 (item, description, submission number).
 */
export type ActionField =
  | { name: string; kind: 'text' | 'textarea' | 'date' | 'lines' | 'minorWorks'; optional?: boolean }
  | { name: string; kind: 'choice'; options: string[] }
  | { name: string; kind: 'officer' };

export const ACTION_FORMS: Record<ConsoleEvent, ActionField[]> = {
  'case.assign': [{ name: 'staffId', kind: 'officer' }],
  'case.acknowledge': [],
  'case.examine': [],
  'lor.issue': [
    { name: 'bdReference', kind: 'text' },
    { name: 'date', kind: 'date' },
    { name: 'category1', kind: 'lines' },
    { name: 'category2', kind: 'lines' },
    { name: 'minorWorks', kind: 'minorWorks' },
  ],
  'compliance.record': [{ name: 'note', kind: 'textarea', optional: true }],
  'inspection.schedule': [
    { name: 'date', kind: 'date' },
    { name: 'window', kind: 'choice', options: ['AM', 'PM'] },
    { name: 'officerId', kind: 'officer' },
  ],
  'inspection.record': [
    { name: 'result', kind: 'choice', options: ['PASS', 'FAIL'] },
    { name: 'note', kind: 'textarea', optional: true },
  ],
  'certificate.issue': [
    { name: 'kind', kind: 'choice', options: ['CERTIFICATE', 'NOTICE'] },
    { name: 'remarks', kind: 'textarea', optional: true },
  ],
  'case.reject': [{ name: 'reason', kind: 'textarea' }],
  'case.close': [],
  'information.request': [
    { name: 'documentTypes', kind: 'lines' },
    { name: 'note', kind: 'textarea', optional: true },
    { name: 'replyBy', kind: 'date' },
  ],
  'message.send': [{ name: 'body', kind: 'textarea' }],
};

export interface MinorWorksRow {
  item: string;
  description: string;
  submissionNo: string;
}

export type ActionValues = Record<string, string | MinorWorksRow[]>;

export function initialValues(fields: ActionField[], officerId: number, today: string): ActionValues {
  return Object.fromEntries(
    fields.map((f) => [
      f.name,
      f.kind === 'minorWorks'
        ? []
        : f.kind === 'officer'
          ? String(officerId)
          : f.kind === 'choice'
            ? (f.options[0] ?? '')
            : f.kind === 'date' && f.name === 'date'
              ? today
              : '',
    ]),
  );
}

/** The answers the API takes, from what the form holds. */
export function answersOf(fields: ActionField[], values: ActionValues): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'minorWorks') answers[f.name] = v;
    else if (typeof v !== 'string') continue;
    else if (f.kind === 'lines')
      answers[f.name] = v
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
    else if (f.kind === 'officer') answers[f.name] = Number(v);
    else if (f.kind !== 'choice' && 'optional' in f && f.optional && v.trim() === '') continue;
    else answers[f.name] = v;
  }
  return answers;
}
