import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS, qualify, toFormIssues, type FormIssue } from '../../../machines/forms/errors';
import { FORM_CATALOGUE, answerText, fieldById, formByKey } from '../../../machines/forms/index';
import { draftSchemaFor, schemaFor } from '../../../machines/forms/schema';
import { LOR_EXAMPLE } from '../../../machines/forms/letter-of-requirements';
import type { FormDefinition } from '../../../machines/forms/types';
import { MINOR_WORKS_MAX_ROWS } from '../../../machines/rules/minor-works';
import { parseBdReference } from '../../../machines/rules/bd-reference';
import { hongKongToday } from '../../../machines/rules/hk-date';
import { findRoute } from '../../../machines/routes';
import {
  SELF_CERT_CASE_FORMS,
  certifiesCaseForm,
  isSelfCertKey,
} from '../../../machines/rules/selfcert';

const SELF_CERT = ['scs1', 'scs2', 'scc1', 'scc2', 'scn1'] as const;
const defs = SELF_CERT.map((k) => FORM_CATALOGUE[k]);
const issuesOf = (definition: FormDefinition, answers: unknown): FormIssue[] => {
  const result = schemaFor(definition).safeParse(answers);
  return result.success ? [] : toFormIssues(result.error);
};
const exampleOf = (d: FormDefinition) => d.example as Record<string, unknown>;
const mw = (cells: Record<string, string>) => ({
  no: '1',
  item: '3.5',
  description: 'A supporting frame for an air-conditioning unit',
  submissionNo: 'MW0123456',
  ...cells,
});
const field = (key: string) => qualify(`fields.lor.${key}`);

describe.each(defs.map((d) => [d.code, d] as const))('self-certification %s', (_code, definition) => {
  const example = exampleOf(definition);
  const withRows = (rows: unknown[]) => ({ ...example, minorWorksCarriedOut: 'yes', minorWorks: rows });

  it('is a self-certification of the catalogue with its example valid', () => {
    expect(definition.selfCertification).toBe(true);
    expect(formByKey(definition.key)).toBe(definition);
    expect(issuesOf(definition, example)).toEqual([]);
  });

  it('normalises the minor works table: items, submission numbers and row numbers', () => {
    const parsed = schemaFor(definition).parse(
      withRows([mw({ no: '01', item: 'Class III item 3.5', submissionNo: 'mw 0123 456' }), mw({ no: '2' })]),
    );
    expect(parsed.minorWorks).toEqual([
      { no: '1', item: '3.5', description: mw({}).description, submissionNo: 'MW0123456' },
      { ...mw({ no: '2' }) },
    ]);
  });

  it('refuses an empty row, naming the row', () => {
    expect(issuesOf(definition, withRows([mw({}), { no: '', item: ' ' }, mw({ no: '2' })]))).toEqual([
      {
        path: ['minorWorks', 1],
        fieldId: 'minorWorks',
        message: ERRORS.rowEmpty,
        params: { field: field('minorWorks'), row: 2 },
      },
    ]);
  });

  it('refuses an empty row, naming the row', () => {
    expect(issuesOf(definition, withRows([mw({}), { no: '', item: ' ' }, mw({ no: '2' })]))).toEqual([
      {
        path: ['minorWorks', 1],
        fieldId: 'minorWorks',
        message: ERRORS.rowEmpty,
        params: { field: field('minorWorks'), row: 2 },
      },
    ]);
  });

  it('refuses a row with an empty required cell, naming the row', () => {
    expect(issuesOf(definition, withRows([mw({}), mw({ no: '2', description: '' })]))).toEqual([
      {
        path: ['minorWorks', 1, 'description'],
        fieldId: 'minorWorks',
        message: ERRORS.rowRequired,
        params: { field: field('mwDescription'), row: 2 },
      },
    ]);
  });

  it('refuses a duplicate row number on the later row', () => {
    expect(issuesOf(definition, withRows([mw({}), mw({ no: '1', item: '2.14' })]))).toEqual([
      {
        path: ['minorWorks', 1, 'no'],
        fieldId: 'minorWorks',
        message: ERRORS.rowDuplicate,
        params: { field: field('mwNo'), row: 2, first: 1, value: '1' },
      },
    ]);
  });

  it('refuses an unknown minor works item and a bad submission number', () => {
    const issues = issuesOf(definition, withRows([mw({ item: '3.99', submissionNo: 'SUB-1' })]));
    expect(issues.map((i) => [i.path, i.message])).toEqual([
      [['minorWorks', 0, 'item'], ERRORS.rowMinorWorksItem],
      [['minorWorks', 0, 'submissionNo'], ERRORS.rowSubmissionNo],
    ]);
  });

  it('needs at least one row when minor works were carried out, and none when not', () => {
    expect(issuesOf(definition, withRows([{}])).map((i) => [i.path, i.message])).toEqual([
      [['minorWorks'], ERRORS.required],
    ]);
    const none = schemaFor(definition).parse({
      ...example,
      minorWorksCarriedOut: 'no',
      minorWorks: [mw({})],
    });
    expect(none).not.toHaveProperty('minorWorks');
  });

  it(`refuses more than ${MINOR_WORKS_MAX_ROWS} rows with the limit in the message`, () => {
    const rows = Array.from({ length: MINOR_WORKS_MAX_ROWS + 1 }, (_, i) => mw({ no: String(i + 1) }));
    expect(issuesOf(definition, withRows(rows))).toEqual([
      {
        path: ['minorWorks'],
        fieldId: 'minorWorks',
        message: ERRORS.tooManyRows,
        params: { field: field('minorWorks'), max: MINOR_WORKS_MAX_ROWS },
      },
    ]);
    // A draft with too many rows is refused too (the API never stores an unbounded table).
    expect(draftSchemaFor(definition).safeParse(withRows(rows)).success).toBe(false);
  });

  it('refuses a certifier whose registration has expired, or is on the other register', () => {
    expect(issuesOf(definition, { ...example, certifierRegExpiry: '2020-01-31' })).toEqual([
      {
        path: ['certifierRegExpiry'],
        fieldId: 'certifierRegExpiry',
        message: ERRORS.registrationExpired,
        params: { field: qualify('fields.apRse.expiryDate') },
      },
    ]);
    expect(
      issuesOf(definition, { ...example, certifierRegExpiry: hongKongToday() }),
      'a registration expiring today is valid today',
    ).toEqual([]);
    const rse = issuesOf(definition, { ...example, certifierIdentity: 'rse' });
    expect(rse.map((i) => [i.path, i.message])).toEqual([[['certifierRegNo'], ERRORS.registrationIdentity]]);
    const bad = issuesOf(definition, { ...example, certifierRegNo: 'AP(X) 12' });
    expect(bad.map((i) => [i.path, i.message])).toEqual([[['certifierRegNo'], ERRORS.registrationNumber]]);
    expect(schemaFor(definition).parse({ ...example, certifierRegNo: 'ａｐａ１２３４' }).certifierRegNo).toBe(
      'AP(A) 1234',
    );
  });

  it('refuses a case number that is not an application number', () => {
    const issues = issuesOf(definition, { ...example, caseApplicationNo: 'a2 / 2026' });
    expect(issues.map((i) => [i.path, i.message])).toEqual([[['caseApplicationNo'], ERRORS.applicationNo]]);
  });

  it('requires each certification tick with its own message', () => {
    const issues = issuesOf(definition, { ...example, certifySafe: false });
    expect(issues).toEqual([
      { path: ['certifySafe'], fieldId: 'certifySafe', message: qualify('errors.certify'), params: {} },
    ]);
  });
});

describe.each(defs.filter((d) => d.key !== 'scc2').map((d) => [d.code, d] as const))(
  'the Letter of Requirements of %s',
  (_code, definition) => {
    const example = exampleOf(definition);
    const step = schemaFor(definition, { stepId: 'letterOfRequirements' });
    const issues = (answers: unknown) => {
      const r = step.safeParse(answers);
      return r.success ? [] : toFormIssues(r.error);
    };

    it('is the third step, with the letter, both categories, minor works, certification and declaration', () => {
      const fill = definition.steps.filter((s) => s.kind === 'fill');
      expect(fill.map((s) => s.id)).toEqual(['fillPartA', 'fillPartB', 'letterOfRequirements']);
      expect(issues(example)).toEqual([]);
    });

    it('refuses a letter dated in the future', () => {
      expect(issues({ ...example, lorDate: '2999-01-01' })).toEqual([
        {
          path: ['lorDate'],
          fieldId: 'lorDate',
          message: ERRORS.dateInFuture,
          params: { field: field('date') },
        },
      ]);
      expect(issues({ ...example, lorDate: hongKongToday() })).toEqual([]);
    });

    it('refuses a BD reference that is not one, and stores a folded one', () => {
      expect(issues({ ...example, lorReference: '2/9041/26' }).map((i) => i.message)).toEqual([
        ERRORS.bdReference,
      ]);
      expect(step.parse({ ...example, lorReference: ' ｂｄ２ / 9041 / 26 ' }).lorReference).toBe(
        'BD 2/9041/26',
      );
    });

    it('needs a remark for a requirement not applicable, and a Category 1 requirement at all', () => {
      const na = { item: 'Sprinklers', status: 'notApplicable', remark: '' };
      expect(issues({ ...example, lorCategory1: [na] })).toEqual([
        {
          path: ['lorCategory1', 0, 'remark'],
          fieldId: 'lorCategory1',
          message: ERRORS.rowRequired,
          params: { field: field('remark'), row: 1 },
        },
      ]);
      expect(issues({ ...example, lorCategory1: [] }).map((i) => i.path)).toEqual([['lorCategory1']]);
      expect(issues({ ...example, lorCategory2: [] })).toEqual([]);
      const unknown = issues({ ...example, lorCategory2: [{ item: 'x', status: 'maybe' }] });
      expect(unknown.map((i) => i.message)).toEqual([ERRORS.rowInvalidOption]);
    });
  },
);

describe('SCC-2, alteration of a registered centre', () => {
  it('has five steps and its minor works in Part B, with no letter', () => {
    const scc2 = FORM_CATALOGUE.scc2;
    expect(scc2.steps.map((s) => (s.kind === 'fill' ? s.id : s.kind))).toEqual([
      'fillPartA',
      'fillPartB',
      'preview',
      'upload',
      'success',
    ]);
    expect(schemaFor(scc2).parse({ ...scc2.example, ...LOR_EXAMPLE })).not.toHaveProperty('lorReference');
    expect(scc2.documents.map((d) => d.id)).not.toContain('lorCopy');
  });
});

describe('BD reference numbers', () => {
  it.each([
    ['BD 2/9041/26', 'BD 2/9041/26'],
    ['bd2/9041/26', 'BD 2/9041/26'],
    ['BD 2 / 9041 / 26 (3)', 'BD 2/9041/26 (3)'],
    ['ＢＤ　２５／１２３４５６／０９', 'BD 25/123456/09'],
  ])('reads %s as %s', (input, value) => expect(parseBdReference(input)?.value).toBe(value));

  it.each(['', 'BD', 'BD 2/9041', 'BD 2/9041/2026', 'AP 2/9041/26', 'BD x/9041/26', 'BD 2/9041/26 (abc)'])(
    'refuses %j',
    (input) => expect(parseBdReference(input)).toBeUndefined(),
  );
});

describe('which cases a self-certification certifies', () => {
  it('maps each form to the application forms of its type, and only those', () => {
    expect(Object.keys(SELF_CERT_CASE_FORMS).sort()).toEqual([...SELF_CERT].sort());
    expect(certifiesCaseForm('scs1', 'A2')).toBe(true);
    expect(certifiesCaseForm('scs1', 'E2')).toBe(false);
    expect(certifiesCaseForm('scc1', 'CCCAI-MH3')).toBe(true);
    expect(certifiesCaseForm('scn1', 'G2')).toBe(true);
    expect(isSelfCertKey('a2')).toBe(false);
    expect(isSelfCertKey('toString')).toBe(false);
  });

  it('maps only to form codes of the catalogue', () => {
    const codes = new Set(Object.values(FORM_CATALOGUE).map((d) => d.code));
    for (const list of Object.values(SELF_CERT_CASE_FORMS))
      for (const c of list) expect(codes.has(c), c).toBe(true);
  });
});

describe('today in Hong Kong', () => {
  it('is the Hong Kong date, not the UTC one', () => {
    expect(hongKongToday(new Date('2026-11-24T16:30:00Z'))).toBe('2026-11-25');
    expect(hongKongToday(new Date('2026-11-24T15:59:00Z'))).toBe('2026-11-24');
  });
});

describe('the routes of the self-certification forms', () => {
  it.each(defs.map((d) => [d.slug, d] as const))(
    '%s has a route per step and its -upload page',
    (slug, d) => {
      d.steps.forEach((step, i) => {
        const route = findRoute(`/form-${slug}-step${i + 1}`);
        expect(route?.flow?.form).toBe(d.key);
        expect(route?.flow?.kind).toBe(step.kind === 'fill' ? step.id : step.kind);
      });
      expect(findRoute(`/form-${slug}-step${d.steps.length + 1}`)).toBeUndefined();
      expect(findRoute(`/form-${slug}-upload`)?.flow).toMatchObject({
        form: d.key,
        kind: 'layoutPlan',
        step: 0,
      });
    },
  );
});

describe('a table answer as the preview and the PDF print it', () => {
  const tc = JSON.parse(
    readFileSync(new URL('../../../i18n/tc/forms.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const translate = (key: string): string => {
    const found = key
      .replace(/^forms:/, '')
      .split('.')
      .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tc);
    return typeof found === 'string' ? found : key;
  };
  const fieldOf = (id: string) => fieldById(FORM_CATALOGUE.scs1, id)?.field;

  it('prints a line a row with the column labels and the option labels in the language', () => {
    const category1 = fieldOf('lorCategory1');
    const minorWorks = fieldOf('minorWorks');
    if (!category1 || !minorWorks) throw new Error('fields missing');
    expect(answerText(category1, LOR_EXAMPLE.lorCategory1, translate, 'tc')?.map((l) => l.text)).toEqual([
      '1. 規定: Provide a second exit route from the classrooms on 5/F.; 遵辦情況: 已遵辦',
      '2. 規定: Fire resisting construction to the staircase enclosure.; 遵辦情況: 不適用; 備註: The premises use no staircase of their own.',
    ]);
    expect(answerText(minorWorks, LOR_EXAMPLE.minorWorks, translate, 'tc')?.[0]?.text).toBe(
      '1. 編號: 1; 小型工程項目: 3.5; 說明: Erection of a supporting frame for an air-conditioning unit.; 呈交編號: MW0123456',
    );
  });
});
