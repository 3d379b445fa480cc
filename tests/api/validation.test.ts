import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import type { FieldError } from '../../api/http/error-handler';
import { type TestServer, listen, postJson } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

let database: TestDatabase;
let server: TestServer;
let endpoint: string;

beforeAll(async () => {
  database = await createTestDatabase({ seed: true });
  server = await listen(createApp({ db: database, logger: pino({ level: 'silent' }) }));
  endpoint = `${server.baseUrl}/api/application/getmasterdata`;
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

const valid = { type: 'admin_setting', code: 'logout_idletime_frontend' };

describe('validation of the master data lookup', () => {
  it.each([
    ['type is missing', { code: valid.code }, 'type', 'Type is required.'],
    ['type is empty', { ...valid, type: '' }, 'type', 'Type is required.'],
    ['type is only spaces', { ...valid, type: '   ' }, 'type', 'Type is required.'],
    ['type is null', { ...valid, type: null }, 'type', 'Type is required.'],
    ['type is a number', { ...valid, type: 42 }, 'type', 'Type must be text.'],
    [
      'type is longer than 64 characters',
      { ...valid, type: 'a'.repeat(65) },
      'type',
      'Type must be 64 characters or fewer.',
    ],
    [
      'type holds a space',
      { ...valid, type: 'admin setting' },
      'type',
      'Type can only contain letters, numbers, dots, hyphens and underscores.',
    ],
    ['code is missing', { type: valid.type }, 'code', 'Code is required.'],
    ['code is empty', { ...valid, code: '' }, 'code', 'Code is required.'],
    ['code is an array', { ...valid, code: ['x'] }, 'code', 'Code must be text.'],
    [
      'code is longer than 64 characters',
      { ...valid, code: 'c'.repeat(65) },
      'code',
      'Code must be 64 characters or fewer.',
    ],
  ])('answers 400 with a field error when %s', async (_case, body, path, message) => {
    const res = await postJson<{ errors: FieldError[] }>(endpoint, body);

    expect(res.status).toBe(400);
    expect(res.body.meta).toEqual({ code: 'BAD_REQUEST', message });
    expect(res.body.data.errors).toContainEqual({ path, message });
  });

  it('accepts type and code of exactly 64 characters', async () => {
    const res = await postJson(endpoint, { type: 'a'.repeat(64), code: 'b'.repeat(64) });

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('lists every field error when both fields are missing', async () => {
    const res = await postJson<{ errors: FieldError[] }>(endpoint, {});

    expect(res.status).toBe(400);
    expect(res.body.data.errors.map((error) => error.path)).toEqual(['type', 'code']);
  });

  it('answers 400 when the body is a JSON array instead of an object', async () => {
    const res = await postJson(endpoint, '[]');

    expect(res.status).toBe(400);
    expect(res.body.meta.message).toBe('The request body must be a JSON object.');
  });

  it('answers in Traditional Chinese when Accept-Language asks for zh-HK', async () => {
    const res = await postJson(
      endpoint,
      { code: valid.code },
      { 'accept-language': 'zh-HK,zh;q=0.9,en;q=0.8' },
    );

    expect(res.status).toBe(400);
    expect(res.body.meta.message).toBe('必須提供類型。');
  });

  it('answers in Simplified Chinese when Accept-Language asks for zh-CN', async () => {
    const res = await postJson(endpoint, { ...valid, code: '' }, { 'accept-language': 'zh-CN' });

    expect(res.status).toBe(400);
    expect(res.body.meta.message).toBe('必须提供代码。');
  });

  it('fills the length limit into the Chinese message too', async () => {
    const res = await postJson(`${endpoint}?lang=tc`, { ...valid, type: 'a'.repeat(65) });

    expect(res.body.meta.message).toBe('類型不可多於 64 個字元。');
  });

  it('lets the lang parameter win over Accept-Language', async () => {
    const res = await postJson(`${endpoint}?lang=sc`, { code: valid.code }, { 'accept-language': 'zh-HK' });

    expect(res.body.meta.message).toBe('必须提供类型。');
  });

  it('answers in English for a language the portal does not have', async () => {
    const res = await postJson(endpoint, { code: valid.code }, { 'accept-language': 'fr-FR' });

    expect(res.body.meta.message).toBe('Type is required.');
  });
});

describe('malformed and oversized requests', () => {
  it('answers 400, not 500, for a body that is not valid JSON', async () => {
    const res = await postJson(endpoint, '{"type": "admin_setting",');

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      meta: { code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' },
      data: null,
    });
  });

  it('answers malformed JSON in Simplified Chinese with lang=sc', async () => {
    const res = await postJson(`${endpoint}?lang=sc`, '{bad');

    expect(res.status).toBe(400);
    expect(res.body.meta.message).toBe('请求内容不是有效的 JSON。');
  });

  it('answers 413 for a body over 100 kB', async () => {
    const res = await postJson(endpoint, { ...valid, padding: 'x'.repeat(101 * 1024) });

    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      meta: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' },
      data: null,
    });
  });

  it('answers 415 for a body that is not sent as JSON', async () => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'type=admin_setting',
    });

    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ meta: { code: 'UNSUPPORTED_MEDIA_TYPE' }, data: null });
  });

  it('answers 400 with field errors for a POST without a body', async () => {
    const response = await fetch(endpoint, { method: 'POST' });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ meta: { code: 'BAD_REQUEST' } });
  });
});
