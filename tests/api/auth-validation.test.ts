import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldError } from '../../api/http/error-handler';
import { type LoginHarness, startLoginHarness } from '../support/login';
import { postJson } from '../support/http';

let h: LoginHarness;

beforeAll(async () => {
  h = await startLoginHarness();
});

afterAll(async () => {
  await h?.close();
});

const send = { applicationNo: 'A2-2026-000123', contact: 'applicant.a2@example.hk' };
const verify = { ...send, code: '123456' };

const messages = {
  applicationNoRequired: 'Enter the application number.',
  applicationNoText: 'The application number must be text.',
  applicationNoInvalid:
    'Enter the application number as it is shown on your acknowledgement, for example A2-2026-000123.',
  contactRequired: 'Enter the email address or mobile number you gave in the application.',
  contactText: 'The email address or mobile number must be text.',
  contactInvalid: 'Enter an email address such as name@example.com, or an 8-digit Hong Kong mobile number.',
  codeRequired: 'Enter the one-time password.',
  codeText: 'The one-time password must be text.',
  codeInvalid: 'Enter the 6-digit one-time password.',
  lang: 'The language must be en, sc or tc.',
};

describe('validation of POST /api/auth/otp/send', () => {
  it.each([
    ['applicationNo is missing', { contact: send.contact }, 'applicationNo', messages.applicationNoRequired],
    [
      'applicationNo is empty',
      { ...send, applicationNo: '  ' },
      'applicationNo',
      messages.applicationNoRequired,
    ],
    [
      'applicationNo is a number',
      { ...send, applicationNo: 123456 },
      'applicationNo',
      messages.applicationNoText,
    ],
    [
      'applicationNo holds a space',
      { ...send, applicationNo: 'A2 2026' },
      'applicationNo',
      messages.applicationNoInvalid,
    ],
    [
      'applicationNo is too short',
      { ...send, applicationNo: 'A2-' },
      'applicationNo',
      messages.applicationNoInvalid,
    ],
    [
      'applicationNo is too long',
      { ...send, applicationNo: `A${'1'.repeat(32)}` },
      'applicationNo',
      messages.applicationNoInvalid,
    ],
    [
      'applicationNo starts with a hyphen',
      { ...send, applicationNo: '-A2-2026' },
      'applicationNo',
      messages.applicationNoInvalid,
    ],
    ['contact is missing', { applicationNo: send.applicationNo }, 'contact', messages.contactRequired],
    ['contact is null', { ...send, contact: null }, 'contact', messages.contactRequired],
    ['contact is an object', { ...send, contact: { email: 'a@b.hk' } }, 'contact', messages.contactText],
    ['the email has no domain', { ...send, contact: 'name@' }, 'contact', messages.contactInvalid],
    ['the email has two @', { ...send, contact: 'a@@example.hk' }, 'contact', messages.contactInvalid],
    [
      'the email is too long',
      { ...send, contact: `${'a'.repeat(250)}@example.hk` },
      'contact',
      messages.contactInvalid,
    ],
    ['the mobile has 7 digits', { ...send, contact: '9123456' }, 'contact', messages.contactInvalid],
    ['the mobile has 9 digits', { ...send, contact: '912345678' }, 'contact', messages.contactInvalid],
    [
      'the mobile starts with 2 (a fixed line)',
      { ...send, contact: '21234567' },
      'contact',
      messages.contactInvalid,
    ],
    [
      'the mobile has another country code',
      { ...send, contact: '+86 91234567' },
      'contact',
      messages.contactInvalid,
    ],
    ['the mobile holds letters', { ...send, contact: '9123abcd' }, 'contact', messages.contactInvalid],
    ['lang is not a portal language', { ...send, lang: 'fr' }, 'lang', messages.lang],
  ])('answers 400 with a field error when %s', async (_case, body, path, message) => {
    const res = await h.send(body);

    expect(res.status).toBe(400);
    expect(res.body.meta).toEqual({ code: 'BAD_REQUEST', message });
    expect((res.body.data as { errors: FieldError[] }).errors).toContainEqual({ path, message });
  });

  it.each([
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"A2-2026-000123"'],
    ['JSON null', 'null'],
    ['malformed JSON', '{"applicationNo": '],
  ])('answers 400 for %s', async (_case, raw) => {
    const res = await postJson(`${h.baseUrl}/api/auth/otp/send`, raw);

    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('BAD_REQUEST');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await fetch(`${h.baseUrl}/api/auth/otp/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'applicationNo=A2-2026-000123',
    });

    expect(response.status).toBe(415);
  });

  it('answers field errors in Traditional Chinese when the body asks for tc', async () => {
    const res = await h.send({ applicationNo: 'A2-2026-000123', contact: '123', lang: 'tc' });

    expect(res.body.meta.message).toBe(
      '請輸入電郵地址（例如 name@example.com）或8位數字的香港流動電話號碼。',
    );
  });
});

describe('validation of POST /api/auth/otp/verify', () => {
  it.each([
    ['code is missing', { ...send }, 'code', messages.codeRequired],
    ['code is empty', { ...verify, code: '' }, 'code', messages.codeRequired],
    ['code is a number', { ...verify, code: 123456 }, 'code', messages.codeText],
    ['code is an array', { ...verify, code: ['123456'] }, 'code', messages.codeText],
    ['code holds letters', { ...verify, code: '12a456' }, 'code', messages.codeInvalid],
    ['code has 5 digits', { ...verify, code: '12345' }, 'code', messages.codeInvalid],
    ['code has 7 digits', { ...verify, code: '1234567' }, 'code', messages.codeInvalid],
    ['code has a space inside', { ...verify, code: '123 456' }, 'code', messages.codeInvalid],
    ['code is in Arabic-Indic digits', { ...verify, code: '١٢٣٤٥٦' }, 'code', messages.codeInvalid],
    [
      'applicationNo is missing',
      { contact: send.contact, code: '123456' },
      'applicationNo',
      messages.applicationNoRequired,
    ],
    ['contact is a boolean', { ...verify, contact: true }, 'contact', messages.contactText],
  ])('answers 400 with a field error when %s', async (_case, body, path, message) => {
    const res = await h.verify(body);

    expect(res.status).toBe(400);
    expect((res.body.data as { errors: FieldError[] }).errors).toContainEqual({ path, message });
  });

  it('lists every field error of an empty object', async () => {
    const res = await h.verify({});

    expect(res.status).toBe(400);
    expect((res.body.data as { errors: FieldError[] }).errors.map((e) => e.path)).toEqual([
      'applicationNo',
      'contact',
      'code',
    ]);
  });

  it('answers 400, never 500, for a POST without a body', async () => {
    const response = await fetch(`${h.baseUrl}/api/auth/otp/verify`, { method: 'POST' });

    expect(response.status).toBe(400);
  });
});
