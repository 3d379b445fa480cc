import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldError } from '../../api/http/error-handler';
import type { DraftCreatedData, DraftData } from '../../machines/rules/drafts';
import { type DraftHarness, startDraftHarness } from './drafts-harness';

let h: DraftHarness;
let draft: DraftCreatedData;

beforeAll(async () => {
  h = await startDraftHarness();
  draft = await h.createDraft({ formKey: 'a2', answers: { applicantNameEn: 'kept' }, step: 1 });
});

afterAll(async () => {
  await h?.close();
});

const valid = { version: 1, answers: { applicantNameEn: 'CHAN Tai Man' }, step: 1 };
const nested = (depth: number): unknown => (depth === 0 ? 'x' : { inner: nested(depth - 1) });

describe('PUT /api/drafts/:applicationNo with a bad body', () => {
  it.each<[string, unknown, string, string]>([
    ['version is missing', { ...valid, version: undefined }, 'version', 'The version is required.'],
    [
      'version is text',
      { ...valid, version: '1' },
      'version',
      'The version must be a whole number of 1 or more.',
    ],
    ['version is 0', { ...valid, version: 0 }, 'version', 'The version must be a whole number of 1 or more.'],
    [
      'version is a fraction',
      { ...valid, version: 1.5 },
      'version',
      'The version must be a whole number of 1 or more.',
    ],
    [
      'version is huge',
      { ...valid, version: 2 ** 40 },
      'version',
      'The version must be a whole number of 1 or more.',
    ],
    [
      'answers are missing',
      { ...valid, answers: undefined },
      'answers',
      'The answers must be a JSON object.',
    ],
    ['answers are a list', { ...valid, answers: ['a'] }, 'answers', 'The answers must be a JSON object.'],
    ['answers are text', { ...valid, answers: 'a' }, 'answers', 'The answers must be a JSON object.'],
    ['answers are null', { ...valid, answers: null }, 'answers', 'The answers must be a JSON object.'],
    [
      'there are 201 answers',
      { ...valid, answers: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, 'x'])) },
      'answers',
      'There can be at most 200 answers.',
    ],
    [
      'an answer’s name has a space',
      { ...valid, answers: { 'first name': 'x' } },
      'answers.first name',
      "An answer's name must start with a letter and hold only letters, digits, dots, hyphens and underscores (at most 64 characters).",
    ],
    [
      'an answer is 10 001 characters long',
      { ...valid, answers: { remarks: 'x'.repeat(10_001) } },
      'answers.remarks',
      'An answer can be at most 10,000 characters long.',
    ],
    [
      'an answer is nested too deeply',
      { ...valid, answers: { deep: nested(8) } },
      'answers.deep.inner.inner.inner.inner.inner',
      'An answer is nested too deeply.',
    ],
    [
      'a list has 201 items',
      { ...valid, answers: { rows: Array.from({ length: 201 }, () => 'r') } },
      'answers.rows',
      'A list can hold at most 200 items.',
    ],
    [
      'an object inside has 51 parts',
      {
        ...valid,
        answers: { address: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`p${i}`, 'x'])) },
      },
      'answers.address',
      'An answer can hold at most 50 parts.',
    ],
    ['step is missing', { ...valid, step: undefined }, 'step', 'The step is required.'],
    ['step is text', { ...valid, step: 'fill' }, 'step', 'The step must be a whole number from 1 to 100.'],
    ['step is 0', { ...valid, step: 0 }, 'step', 'The step must be a whole number from 1 to 100.'],
    ['step is 101', { ...valid, step: 101 }, 'step', 'The step must be a whole number from 1 to 100.'],
    ['step is a fraction', { ...valid, step: 1.5 }, 'step', 'The step must be a whole number from 1 to 100.'],
    ['the body is a list', [valid], '', 'The request body must be a JSON object.'],
  ])('answers 400 with a field error when %s', async (_case, body, path, message) => {
    const res = await h.saveDraft<{ errors: FieldError[] }>(draft.applicationNo, draft.token, body);

    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('BAD_REQUEST');
    expect(res.body.data.errors).toContainEqual({ path, message });
  });

  it('answers malformed JSON with 400, never 500', async () => {
    const res = await h.saveDraft(draft.applicationNo, draft.token, '{"version": 1,');

    expect(res.status).toBe(400);
    expect(res.body.meta).toEqual({ code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' });
  });

  it('answers a body nested 100 000 deep with 400, never 500', async () => {
    const deep = `{"version":1,"step":1,"answers":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;

    const res = await h.saveDraft(draft.applicationNo, draft.token, deep);

    expect(res.status).toBe(400);
  });

  it('refuses an answer named __proto__ with 400', async () => {
    const res = await h.saveDraft<{ errors: FieldError[] }>(
      draft.applicationNo,
      draft.token,
      '{"version":1,"step":1,"answers":{"__proto__":{"polluted":true}}}',
    );

    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((e) => e.path)).toEqual(['answers.__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('writes field errors in the caller’s language', async () => {
    const res = await h.saveDraft<{ errors: FieldError[] }>(
      draft.applicationNo,
      draft.token,
      { ...valid, version: undefined },
      { 'accept-language': 'zh-CN' },
    );

    expect(res.body.data.errors).toContainEqual({ path: 'version', message: '必须提供版本。' });
  });

  it('answers 415 for a body not sent as JSON', async () => {
    const res = await h.saveDraft(draft.applicationNo, draft.token, JSON.stringify(valid), {
      'content-type': 'text/plain',
    });

    expect(res.status).toBe(415);
  });

  it('leaves the draft as it was after every refused body', async () => {
    const stored = await h.getDraft<DraftData>(draft.applicationNo, draft.token);

    expect(stored.body.data).toMatchObject({ version: 1, answers: { applicantNameEn: 'kept' }, step: 1 });
  });
});

describe('POST /api/drafts with a bad body', () => {
  it.each<[string, unknown, string, string]>([
    ['formKey is missing', {}, 'formKey', 'Choose the application form.'],
    ['formKey is a number', { formKey: 2 }, 'formKey', 'The application form must be text.'],
    ['formKey names no form', { formKey: 'constructor' }, 'formKey', 'There is no such application form.'],
    ['answers are a list', { formKey: 'a2', answers: [] }, 'answers', 'The answers must be a JSON object.'],
    [
      'step is empty text',
      { formKey: 'a2', step: '' },
      'step',
      'The step must be a whole number from 1 to 100.',
    ],
  ])('answers 400 with a field error when %s', async (_case, body, path, message) => {
    const res = await h.request<{ errors: FieldError[] }>('POST', '/api/drafts', { body });

    expect(res.status).toBe(400);
    expect(res.body.data.errors).toContainEqual({ path, message });
  });
});

describe('body size', () => {
  const answersOf = (kb: number) =>
    Object.fromEntries(Array.from({ length: kb / 2 }, (_, i) => [`field${i}`, 'x'.repeat(2000)]));

  it('saves a 150 kB draft, above the 100 kB limit of the rest of the API', async () => {
    const big = await h.createDraft({ formKey: 'a2', answers: answersOf(150) });

    const res = await h.saveDraft(big.applicationNo, big.token, {
      version: 1,
      answers: answersOf(150),
      step: 1,
    });

    expect(res.status).toBe(200);
  });

  it('answers 413 for a draft body over 256 kB, and stores nothing', async () => {
    const res = await h.saveDraft(draft.applicationNo, draft.token, {
      version: 1,
      answers: answersOf(300),
      step: 1,
    });
    const create = await h.request('POST', '/api/drafts', {
      body: { formKey: 'a2', answers: answersOf(300) },
    });
    const stored = await h.getDraft<DraftData>(draft.applicationNo, draft.token);

    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      meta: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' },
      data: null,
    });
    expect(create.status).toBe(413);
    expect(stored.body.data.version).toBe(1);
  });

  it('answers more than 200 000 characters of answers, in a body under 256 kB, with 400', async () => {
    const res = await h.saveDraft<{ errors: FieldError[] }>(draft.applicationNo, draft.token, {
      version: 1,
      answers: answersOf(204),
      step: 1,
    });

    expect(res.status).toBe(400);
    expect(res.body.data.errors).toContainEqual({
      path: 'answers',
      message: 'The answers are too large to save.',
    });
  });

  it('keeps the 100 kB limit for the rest of the API', async () => {
    const res = await h.request('POST', '/api/application/getmasterdata', {
      body: { type: 'admin_setting', code: 'x', padding: 'x'.repeat(150 * 1024) },
    });
    const resume = await h.request('POST', '/api/drafts/resume/send', {
      body: { applicationNo: draft.applicationNo, contact: 'a@example.hk', padding: 'x'.repeat(150 * 1024) },
    });

    expect(res.status).toBe(413);
    expect(resume.status).toBe(413);
  });
});

describe('PUT /api/drafts/:applicationNo checks answers against the form', () => {
  it('refuses an answer that does not fit its field, with the field named in the caller language', async () => {
    const refused = await h.saveDraft(
      draft.applicationNo,
      draft.token,
      { ...valid, answers: { applicantNameEn: 'x'.repeat(201) } },
      { 'accept-language': 'zh-HK' },
    );
    expect(refused.status).toBe(400);
    const errors = (refused.body.data as { errors: { path: string; message: string }[] }).errors;
    expect(errors[0]?.path).toBe('answers.applicantNameEn');
    expect(errors[0]?.message).toMatch(/[\u3400-\u9fff]/);
  });

  it('drops answers that are not fields of the form', async () => {
    const saved = await h.saveDraft(draft.applicationNo, draft.token, {
      ...valid,
      answers: { applicantNameEn: 'A', notAField: 'x' },
    });
    expect(saved.status).toBe(200);
    const stored = await h.getDraft(draft.applicationNo, draft.token);
    expect(stored.body.data).toMatchObject({ answers: { applicantNameEn: 'A' } });
    expect((stored.body.data as { answers: Record<string, unknown> }).answers).not.toHaveProperty(
      'notAField',
    );
  });
});
