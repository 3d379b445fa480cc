import { describe, expect, it } from 'vitest';
import { ERRORS, qualify, toFormIssues } from '../../../machines/forms/errors';
import { fillSteps } from '../../../machines/forms/fields';
import { TABLE_MAX_ROWS } from '../../../machines/forms/limits';
import { draftSchemaFor, schemaFor } from '../../../machines/forms/schema';
import { TEST_SELF_CERT } from './fixtures/test-self-cert';

const example = TEST_SELF_CERT.example as Record<string, unknown>;
const lor = schemaFor(TEST_SELF_CERT, { stepId: 'letterOfRequirements' });
const issues = (answers: unknown) => {
  const result = lor.safeParse(answers);
  return result.success ? [] : toFormIssues(result.error);
};
const row = (cells: Record<string, string>) => ({
  no: '1',
  item: '3.39',
  description: '',
  submissionNo: 'MW03-1/2026',
  ...cells,
});

describe('the self-certification test definition', () => {
  it('has three fill steps: Part A, Part B and the Letter of Requirements', () => {
    expect(fillSteps(TEST_SELF_CERT).map((s) => s.id)).toEqual([
      'fillPartA',
      'fillPartB',
      'letterOfRequirements',
    ]);
  });

  it('checks one step at a time and answers only that step', () => {
    const partB = schemaFor(TEST_SELF_CERT, { stepId: 'fillPartB' }).parse(example);
    expect(Object.keys(partB).sort()).toEqual(
      [
        'apRseEmail',
        'apRseExpiry',
        'apRseIdentity',
        'apRseMobile',
        'apRseNameEn',
        'apRseNameZh',
        'apRseRegNo',
      ].sort(),
    );
  });

  it('refuses a step id that is not a fill step', () => {
    expect(() => schemaFor(TEST_SELF_CERT, { stepId: 'preview' })).toThrow();
  });

  it('requires the expiry date of registration and checks the AP or RSE email and mobile', () => {
    const partB = schemaFor(TEST_SELF_CERT, { stepId: 'fillPartB' });
    const result = partB.safeParse({
      ...example,
      apRseExpiry: '2027-02-30',
      apRseEmail: 'x',
      apRseMobile: '3123 4567',
    });
    expect(result.success ? [] : toFormIssues(result.error).map((i) => i.message)).toEqual([
      ERRORS.invalidDate,
      ERRORS.invalidEmail,
      ERRORS.invalidMobile,
    ]);
  });

  it('accepts minor works rows and trims their cells', () => {
    const out = lor.parse({ ...example, minorWorks: [row({ description: '  Fire door  ' })] });
    expect(out.minorWorks).toEqual([row({ description: 'Fire door' })]);
  });

  it('validates each row by its columns: required cells, numbers and lengths', () => {
    const minorWorks = [row({}), row({ no: 'two', submissionNo: '' }), row({ item: 'x'.repeat(21) })];
    expect(issues({ ...example, minorWorks })).toEqual([
      {
        path: ['minorWorks', 1, 'no'],
        fieldId: 'minorWorks',
        message: ERRORS.rowInvalidNumber,
        params: { field: qualify('fields.lor.mwNo'), row: 2 },
      },
      {
        path: ['minorWorks', 1, 'submissionNo'],
        fieldId: 'minorWorks',
        message: ERRORS.rowRequired,
        params: { field: qualify('fields.lor.mwSubmissionNo'), row: 2 },
      },
      {
        path: ['minorWorks', 2, 'item'],
        fieldId: 'minorWorks',
        message: ERRORS.rowTooLong,
        params: { field: qualify('fields.lor.mwItem'), row: 3, max: 20 },
      },
    ]);
  });

  it('refuses a row added but left blank, and keeps the index of the rows after it', () => {
    const blank = { no: '', item: '', description: '', submissionNo: '' };
    expect(issues({ ...example, minorWorks: [blank, row({ no: '2' })] })).toEqual([
      {
        path: ['minorWorks', 0],
        fieldId: 'minorWorks',
        message: ERRORS.rowEmpty,
        params: { field: qualify('fields.lor.minorWorks'), row: 1 },
      },
    ]);
    expect(issues({ ...example, minorWorks: [blank, row({ item: '' })] })[1]?.path).toEqual([
      'minorWorks',
      1,
      'item',
    ]);
  });

  it('takes an empty table, as minor works are optional', () => {
    expect(issues({ ...example, minorWorks: [] })).toEqual([]);
  });

  it('refuses more rows than the table allows, in drafts too', () => {
    const many = Array.from({ length: 21 }, (_, i) => row({ no: String(i + 1) }));
    expect(issues({ ...example, minorWorks: many })[0]?.message).toBe(ERRORS.tooManyRows);
    expect(draftSchemaFor(TEST_SELF_CERT).safeParse({ minorWorks: many }).success).toBe(false);
    expect(TABLE_MAX_ROWS).toBeGreaterThanOrEqual(20);
  });

  it('keeps an unfinished row in a draft and strips unknown columns', () => {
    const draft = draftSchemaFor(TEST_SELF_CERT).parse({ minorWorks: [{ no: '1', extra: 'x' }] });
    expect(draft.minorWorks).toEqual([{ no: '1', item: '', description: '', submissionNo: '' }]);
  });

  it('requires Category 1 and Category 2 compliance', () => {
    const paths = issues({ ...example, lorCategory1: undefined, lorCategory2: 'maybe' }).map((i) => [
      i.path[0],
      i.message,
    ]);
    expect(paths).toEqual([
      ['lorCategory1', ERRORS.required],
      ['lorCategory2', ERRORS.invalidOption],
    ]);
  });
});
