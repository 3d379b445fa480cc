/**
 * What the server really sends for each Accept-Encoding: the built SPA's pre-compressed assets (dist/,
 * which `npm test` builds first) and the API's answers compressed on the fly above the threshold, while
 * PDF downloads stream as they are.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import { COMPRESSION_THRESHOLD_BYTES } from '../../api/static-site';
import { PARTIES_EXAMPLE, PREMISES_EXAMPLE } from '../../machines/forms/examples';
import { type TestServer, listen, rawGet } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

const DIST = path.resolve('dist');
let database: TestDatabase;
let server: TestServer;
let script: { url: string; bytes: Buffer };

beforeAll(async () => {
  if (!existsSync(path.join(DIST, 'index.html')))
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  // The largest script of the build: the one compression matters most for.
  const name = readdirSync(path.join(DIST, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f, size: readFileSync(path.join(DIST, 'assets', f)).length }))
    .sort((a, b) => b.size - a.size)[0]?.f;
  if (!name) throw new Error('dist/assets holds no script');
  script = { url: `/assets/${name}`, bytes: readFileSync(path.join(DIST, 'assets', name)) };
  database = await createTestDatabase({ seed: true });
  server = await listen(createApp({ db: database, logger: pino({ level: 'silent' }), staticDir: DIST }));
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('the built assets', () => {
  it('sends the brotli file to a browser that accepts br, decoding to the same script', async () => {
    const res = await rawGet(server.baseUrl + script.url, { 'accept-encoding': 'gzip, deflate, br, zstd' });

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.length).toBeLessThan(script.bytes.length / 2);
    expect(brotliDecompressSync(res.body).equals(script.bytes)).toBe(true);
  });

  it('sends the gzip file to a client that accepts only gzip', async () => {
    const res = await rawGet(server.baseUrl + script.url, { 'accept-encoding': 'gzip' });

    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(res.body).equals(script.bytes)).toBe(true);
  });

  it('sends the file itself to a client that asks for identity', async () => {
    const res = await rawGet(server.baseUrl + script.url, { 'accept-encoding': 'identity' });

    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(res.headers['content-length'])).toBe(script.bytes.length);
    expect(res.body.equals(script.bytes)).toBe(true);
  });

  it('sends the stylesheet compressed too', async () => {
    const css = readdirSync(path.join(DIST, 'assets')).find((f) => f.endsWith('.css'));
    const res = await rawGet(`${server.baseUrl}/assets/${css}`, { 'accept-encoding': 'br' });

    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('text/css');
    expect(brotliDecompressSync(res.body).equals(readFileSync(path.join(DIST, 'assets', css ?? '')))).toBe(
      true,
    );
  });

  it('sends the app shell of a client-side route compressed, with no-cache', async () => {
    const res = await rawGet(`${server.baseUrl}/textsize`, { 'accept-encoding': 'br' });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.body).equals(readFileSync(path.join(DIST, 'index.html')))).toBe(true);
  });

  it('sends a prerendered page compressed, in the language asked, varying on what chose it', async () => {
    const file = readFileSync(path.join(DIST, 'prerendered', 'tc', 'faq.html'));
    const br = await rawGet(`${server.baseUrl}/faq`, { 'accept-encoding': 'br', 'accept-language': 'zh-HK' });
    const gzip = await rawGet(`${server.baseUrl}/faq`, {
      'accept-encoding': 'gzip',
      'accept-language': 'zh-HK',
    });
    const plain = await rawGet(`${server.baseUrl}/faq`, {
      'accept-encoding': 'identity',
      'accept-language': 'zh-HK',
    });

    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(file)).toBe(true);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(file)).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(file)).toBe(true);
    for (const res of [br, gzip, plain]) {
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers.vary).toMatch(/accept-language/i);
      expect(res.headers.vary).toMatch(/cookie/i);
    }
  });
});

describe('API answers', () => {
  async function newDraft(): Promise<{ applicationNo: string; token: string }> {
    // The example applicant and premises: well over a kilobyte of answers.
    const answers = { ...PARTIES_EXAMPLE, ...PREMISES_EXAMPLE };
    const res = await fetch(`${server.baseUrl}/api/drafts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ formKey: 'a2', answers, step: 1 }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { applicationNo: string; token: string } }).data;
  }

  it('compresses an answer above the threshold with gzip, decoding to the same JSON', async () => {
    const { applicationNo, token } = await newDraft();
    const url = `${server.baseUrl}/api/drafts/${applicationNo}`;
    const headers = { authorization: `Bearer ${token}` };

    const plain = await rawGet(url, { ...headers, 'accept-encoding': 'identity' });
    const gzip = await rawGet(url, { ...headers, 'accept-encoding': 'gzip' });
    const br = await rawGet(url, { ...headers, 'accept-encoding': 'br' });

    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
  });

  it('leaves a small answer as it is', async () => {
    const res = await rawGet(`${server.baseUrl}/api/health`, { 'accept-encoding': 'gzip, br' });

    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toHaveProperty('meta');
  });

  it('streams a PDF as it is, even to a client that accepts gzip', async () => {
    const { applicationNo, token } = await newDraft();
    const res = await rawGet(`${server.baseUrl}/api/drafts/${applicationNo}/pdf`, {
      authorization: `Bearer ${token}`,
      'accept-encoding': 'gzip, br',
    });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
