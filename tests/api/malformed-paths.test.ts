import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app';
import { type TestServer, listen } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * Paths with malformed percent-encoding (`%ZZ`, a lone `%`, an encoded byte that is not UTF-8): a 400
 * envelope in the caller's language, never a 500 and never a stack trace, under /api and on a page path.
 */

let database: TestDatabase;
let server: TestServer;
let staticDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'bd-static-'));
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>portal</title>');
  database = await createTestDatabase({ seed: true });
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  server = await listen(createApp({ db: database, logger: pino({ level: 'info' }, sink), staticDir }));
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
  await rm(staticDir, { recursive: true, force: true });
});

const get = async (p: string, lang = 'en') => {
  const response = await fetch(`${server.baseUrl}${p}`, { headers: { 'accept-language': lang } });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
};

describe('malformed percent-encoding in a path', () => {
  it.each([
    '/api/drafts/%ZZ',
    '/api/drafts/%',
    '/api/drafts/%C0%AF/documents',
    '/api/submissions/%E0%A4%A/files/x',
  ])('answers %s with a 400 envelope', async (p) => {
    const res = await get(p);

    expect(res.status).toBe(400);
    expect(res.type).toMatch(/application\/json/);
    expect(JSON.parse(res.text)).toEqual({
      meta: { code: 'BAD_REQUEST', message: 'The address of the page is not valid.' },
      data: null,
    });
  });

  it('answers a page path with a 400 envelope too', async () => {
    const res = await get('/registration-school%ZZ');

    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ meta: { code: 'BAD_REQUEST' } });
  });

  it('says so in Traditional and Simplified Chinese', async () => {
    const message = async (lang: string) =>
      (JSON.parse((await get('/api/drafts/%ZZ', lang)).text) as { meta: { message: string } }).meta.message;

    expect(await message('zh-HK')).toBe('網頁地址無效。');
    expect(await message('zh-CN')).toBe('网页地址无效。');
  });

  it('never sends or logs a stack trace', async () => {
    const res = await get('/api/drafts/%ZZ');

    expect(res.text).not.toMatch(/URIError|at .*\.js|decodeURIComponent/);
    expect(logLines.join('')).not.toMatch(/URIError|"stack"/);
  });
});
