import { describe, expect, it } from 'vitest';
import { A2 } from '../../../machines/forms/a2';
import { CCCAI_MH3, MUTUAL_HELP_MAX_CHILDREN } from '../../../machines/forms/cccai-mh3';
import { ERRORS, fieldDomId, issueText, qualify, toFormIssues } from '../../../machines/forms/errors';
import { activeFields } from '../../../machines/forms/fields';
import { MULTILINE_MAX, TEXT_MAX } from '../../../machines/forms/limits';
import { draftSchemaFor, missingDocuments, schemaFor } from '../../../machines/forms/schema';
import type { FormDefinition } from '../../../machines/forms/types';
import { maxLengthOf } from '../../../machines/forms/values';

const example = A2.example as Record<string, unknown>;
const issuesOf = (answers: unknown, definition: FormDefinition = A2) => {
  const result = schemaFor(definition).safeParse(answers);
  return result.success ? [] : toFormIssues(result.error);
};
const messagesOf = (answers: unknown, definition: FormDefinition = A2) =>
  issuesOf(answers, definition).map((i) => [i.path.join('.'), i.message]);

describe('schemaFor', () => {
  it('normalises what the applicant typed', () => {
    const out = schemaFor(A2).parse({
      ...example,
      applicantNameEn: '  CHAN Tai Man ',
      applicantEmail: ' Chan.TaiMan@Example.ORG.hk ',
      applicantMobile: '+852 9123-4567',
      applicantHkic: 'a123456(3)',
      contactFax: '2123-4568',
      studentCount: '1,200',
    });
    expect(out).toMatchObject({
      applicantNameEn: 'CHAN Tai Man',
      applicantEmail: 'chan.taiman@example.org.hk',
      applicantMobile: '91234567',
      applicantHkic: 'A1234563',
      contactFax: '21234568',
      studentCount: 1200,
    });
  });

  it('leaves optional fields out when blank and strips unknown keys', () => {
    const out = schemaFor(A2).parse({ ...example, applicantHkic: '  ', contactName: '', hacker: 'x' });
    expect(out).not.toHaveProperty('applicantHkic');
    expect(out).not.toHaveProperty('contactName');
    expect(out).not.toHaveProperty('hacker');
  });

  it('takes a fax only on a fixed line, a telephone on any Hong Kong number', () => {
    expect(messagesOf({ ...example, contactFax: '9123 4567', contactTelephone: '9123 4567' })).toEqual([
      ['contactFax', ERRORS.invalidFixedLine],
    ]);
    expect(messagesOf({ ...example, contactTelephone: '1123 4567' })).toEqual([
      ['contactTelephone', ERRORS.invalidPhone],
    ]);
  });

  it('asks for the English and the Chinese address, and Chinese text in the Chinese one', () => {
    const premisesAddress = { en: 'Flat A, 1 Main Street', zh: 'Flat A', floor: '3/F' };
    expect(messagesOf({ ...example, premisesAddress })).toEqual([
      ['premisesAddress.zh', ERRORS.needsChinese],
    ]);
    expect(messagesOf({ ...example, premisesAddress: { floor: '3/F' } })).toEqual([
      ['premisesAddress.en', ERRORS.required],
      ['premisesAddress.zh', ERRORS.required],
    ]);
  });

  it('asks for names in the script of their label', () => {
    expect(messagesOf({ ...example, schoolNameEn: '海港學校', schoolNameZh: 'Harbour School' })).toEqual([
      ['schoolNameEn', ERRORS.englishOnly],
      ['schoolNameZh', ERRORS.needsChinese],
    ]);
  });

  it('limits text lengths by the exported constants', () => {
    const ok = {
      ...example,
      applicantNameEn: 'A'.repeat(TEXT_MAX),
      correspondenceAddress: 'A'.repeat(MULTILINE_MAX),
    };
    expect(issuesOf(ok)).toEqual([]);
    const issues = issuesOf({ ...ok, applicantNameEn: 'A'.repeat(TEXT_MAX + 1) });
    expect(issues.map((i) => [i.message, i.params.max])).toEqual([[ERRORS.tooLong, TEXT_MAX]]);
    expect(maxLengthOf({ kind: 'text', id: 'x', labelKey: 'x', multiline: true })).toBe(MULTILINE_MAX);
  });

  it('checks numbers: whole, within bounds', () => {
    expect(messagesOf({ ...example, studentCount: 12.5 })).toEqual([['studentCount', ERRORS.notWholeNumber]]);
    expect(messagesOf({ ...example, studentCount: '0' })).toEqual([['studentCount', ERRORS.numberTooSmall]]);
    expect(messagesOf({ ...example, studentCount: 'many' })).toEqual([
      ['studentCount', ERRORS.invalidNumber],
    ]);
    const tooMany = { ...CCCAI_MH3.example, childCount: MUTUAL_HELP_MAX_CHILDREN + 1 };
    expect(issuesOf(tooMany, CCCAI_MH3).map((i) => [i.message, i.params.max])).toEqual([
      [ERRORS.numberTooLarge, MUTUAL_HELP_MAX_CHILDREN],
    ]);
  });

  it('refuses dates that do not exist and options not offered', () => {
    expect(messagesOf({ ...example, applicationDate: '2026-02-29', schoolType: 'university' })).toEqual([
      ['schoolType', ERRORS.invalidOption],
      ['applicationDate', ERRORS.invalidDate],
    ]);
  });

  it("says 'Please agree with the Terms' and asks for the agreement for registration of school", () => {
    expect(issuesOf({ ...example, agreeTerms: false, agreeRegistration: undefined })).toEqual([
      { path: ['agreeTerms'], fieldId: 'agreeTerms', message: ERRORS.agreeTerms, params: {} },
      {
        path: ['agreeRegistration'],
        fieldId: 'agreeRegistration',
        message: ERRORS.agreeRegistration,
        params: {},
      },
    ]);
  });

  it('refuses answers that are not an object, and values of the wrong type', () => {
    expect(messagesOf([])).toEqual([['', ERRORS.notObject]]);
    expect(messagesOf({ ...example, applicantNameEn: 42, agreeTerms: 'yes' })).toEqual([
      ['applicantNameEn', ERRORS.invalidType],
      ['agreeTerms', ERRORS.invalidType],
    ]);
  });

  it('reads a condition through the field it depends on', () => {
    const individual = { ...example, applyingAs: 'individual' };
    const ids = activeFields(A2, individual).map((p) => p.field.id);
    expect(ids).not.toContain('orgNameEn');
    expect(ids).not.toContain('applicantPostTitle');
    expect(ids).toContain('applicantNameEn');
  });
});

describe('draftSchemaFor', () => {
  const draft = draftSchemaFor(A2);

  it('takes an empty draft and a half-typed one as typed', () => {
    expect(draft.parse({})).toEqual({});
    const half = { applicantEmail: 'chan@', applicantMobile: '912', applicantHkic: 'a12', studentCount: '1' };
    expect(draft.parse(half)).toEqual(half);
  });

  it('keeps answers hidden by a condition, so they come back when it holds again', () => {
    expect(draft.parse({ applyingAs: 'individual', orgNameEn: 'Harbour' })).toEqual({
      applyingAs: 'individual',
      orgNameEn: 'Harbour',
    });
  });

  it('still checks types, lengths and options, and strips unknown keys', () => {
    const result = draft.safeParse({
      applicantNameEn: 'A'.repeat(TEXT_MAX + 1),
      schoolType: 'university',
      agreeTerms: 'yes',
      premisesAddress: 'somewhere',
      unknown: 1,
    });
    expect(result.success ? [] : toFormIssues(result.error).map((i) => [i.fieldId, i.message])).toEqual([
      ['applicantNameEn', ERRORS.tooLong],
      ['premisesAddress', ERRORS.invalidType],
      ['schoolType', ERRORS.invalidOption],
      ['agreeTerms', ERRORS.invalidType],
    ]);
    expect(draft.parse(JSON.parse('{"unknown":1,"__proto__":{"x":1}}'))).toEqual({});
  });
});

describe('the error shape', () => {
  it('translates the label param first, then the message', () => {
    const [issue] = issuesOf({ ...example, applicantEmail: '' });
    const en: Record<string, string> = {
      'forms:errors.required': '{{field}} is required',
      'forms:fields.applicant.email': 'Email Address',
    };
    const t = (key: string, params?: Record<string, unknown>) =>
      (en[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params?.[name]));
    expect(issue && issueText(issue, t)).toBe('Email Address is required');
    expect(issue?.params).toEqual({ field: qualify('fields.applicant.email') });
    expect(fieldDomId(['premisesAddress', 'en'])).toBe('field-premisesAddress-en');
  });
});

describe('missingDocuments', () => {
  it('names the required documents not uploaded', () => {
    expect(missingDocuments(A2, ['layoutPlans'])).toEqual(['locationPlan']);
    expect(missingDocuments(A2, ['layoutPlans', 'locationPlan'])).toEqual([]);
  });
});
