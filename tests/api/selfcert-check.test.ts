import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enForms from '../../i18n/en/forms.json';
import scForms from '../../i18n/sc/forms.json';
import tcForms from '../../i18n/tc/forms.json';
import {
  type ApplicationHarness,
  type DraftState,
  draftPath,
  startApplicationHarness,
} from './application-harness';
import { casesWithCertifier } from './accepted-appointment';

/**
 * POST /api/drafts/:applicationNo/check-case: the wizard's check of a self-certification's case on leaving
 * Part A (without the certifier) and Part B (with it), docs/flows/apply.md. Each refusal of the case rules
 * at its field in the caller's language; a bad body 400; a wrong token 401 / 403; never a 500.
 */

const LANGS = { en: enForms, sc: scForms, tc: tcForms } as const;
type Lang = keyof typeof LANGS;
const HEADERS: Record<Lang, string> = { en: 'en', sc: 'zh-CN', tc: 'zh-HK' };

const CASES = {
  open: { no: 'A2-2026-920001', formCode: 'A2', status: 'LOR_ISSUED' },
  otherType: { no: 'E2-2026-920002', formCode: 'E2', status: 'LOR_ISSUED' },
  withdrawn: { no: 'A2-2026-920003', formCode: 'A2', status: 'WITHDRAWN' },
  noLetter: { no: 'A2-2026-920004', formCode: 'A2', status: 'UNDER_EXAMINATION' },
} as const;

let h: ApplicationHarness;
let draft: DraftState;

beforeAll(async () => {
  h = await startApplicationHarness({ formKey: 'scs1' });
  const now = h.clock.now();
  await casesWithCertifier(h.database.db, now, Object.values(CASES));
  draft = await h.newDraft({});
});

afterAll(async () => {
  await h?.close();
});

const check = (body: unknown, { lang, token, no }: { lang?: Lang; token?: string; no?: string } = {}) =>
  h.call<{ caseApplicationNo: string; errors?: { path: string; message: string }[] }>(
    'POST',
    `${draftPath(no ?? draft.applicationNo)}/check-case`,
    { token: token ?? draft.token, body, headers: { 'accept-language': HEADERS[lang ?? 'en'] } },
  );

describe('the first step: the case alone', () => {
  it('takes an open case of the form’s type with a Letter of Requirements (the number as typed, folded)', async () => {
    const res = await check({ answers: { caseApplicationNo: ' a2-2026-920001 ' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ caseApplicationNo: CASES.open.no });
  });

  it.each([
    ['caseNotFound', 'A2-2026-929999'],
    ['caseTypeMismatch', CASES.otherType.no],
    ['caseNotOpen', CASES.withdrawn.no],
    ['lorMissing', CASES.noLetter.no],
  ] as const)('refuses at answers.caseApplicationNo: %s, in en, sc and tc', async (key, no) => {
    for (const lang of Object.keys(LANGS) as Lang[]) {
      const res = await check({ answers: { caseApplicationNo: no } }, { lang });
      expect(res.status, `${key} ${lang}`).toBe(400);
      expect(res.body.meta.message).toBe(LANGS[lang].errors[key]);
      expect(res.body.data).toEqual({
        errors: [{ path: 'answers.caseApplicationNo', message: LANGS[lang].errors[key] }],
      });
    }
  });
});

describe('Part B: the case and its certifier', () => {
  it('takes the appointed AP (the number in any spacing and case)', async () => {
    const res = await check({
      answers: { caseApplicationNo: CASES.open.no, certifierIdentity: 'ap', certifierRegNo: 'ap(a)1234' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses an AP not appointed to the case at answers.certifierRegNo, in en, sc and tc', async () => {
    for (const lang of Object.keys(LANGS) as Lang[]) {
      const res = await check(
        {
          answers: {
            caseApplicationNo: CASES.open.no,
            certifierIdentity: 'ap',
            certifierRegNo: 'AP(S) 7777',
          },
        },
        { lang },
      );
      expect(res.status).toBe(400);
      expect(res.body.data).toEqual({
        errors: [{ path: 'answers.certifierRegNo', message: LANGS[lang].errors.notAppointee }],
      });
    }
    // An RSE is not the appointed AP either, even with the AP's number.
    const rse = await check({
      answers: { caseApplicationNo: CASES.open.no, certifierIdentity: 'rse', certifierRegNo: 'AP(A) 1234' },
    });
    expect(rse.body.data).toMatchObject({ errors: [{ path: 'answers.certifierRegNo' }] });
  });
});

describe('what is not a check', () => {
  it.each([
    ['no body fields', {}],
    ['no case number', { answers: {} }],
    ['a malformed number', { answers: { caseApplicationNo: 'A2 2026/1' } }],
    ['an unknown identity', { answers: { caseApplicationNo: CASES.open.no, certifierIdentity: 'x' } }],
    ['a number that is not text', { answers: { caseApplicationNo: 12 } }],
  ])('answers 400 to %s', async (_name, body) => {
    const res = await check(body);
    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('BAD_REQUEST');
  });

  it('answers 401 without a token and 403 with another draft’s token', async () => {
    const other = await h.newDraft({});
    const body = { answers: { caseApplicationNo: CASES.open.no } };
    const none = await h.call('POST', `${draftPath(draft.applicationNo)}/check-case`, { body });
    expect(none.status).toBe(401);
    const wrong = await check(body, { token: other.token });
    expect(wrong.status).toBe(403);
  });

  it('answers 404 for a draft of a form that names no case (an application form)', async () => {
    const created = await h.call<{ applicationNo: string; token: string }>('POST', '/api/drafts', {
      body: { formKey: 'a2', answers: {}, step: 1 },
    });
    expect(created.status).toBe(201);
    const res = await check(
      { answers: { caseApplicationNo: CASES.open.no } },
      { token: created.body.data.token, no: created.body.data.applicationNo },
    );
    expect(res.status).toBe(404);
  });
});
