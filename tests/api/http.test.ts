import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import { type TestServer, getJson, listen } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

let database: TestDatabase;
let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'bd-static-'));
  await mkdir(path.join(staticDir, 'assets'));
  await writeFile(path.join(staticDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(staticDir, 'assets', 'index-abc123.js'), 'console.log("portal");');
  database = await createTestDatabase({ seed: true });
  server = await listen(createApp({ db: database, logger: pino({ level: 'silent' }), staticDir }));
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
  await rm(staticDir, { recursive: true, force: true });
});

describe('unknown API paths and methods', () => {
  it('answers a 404 envelope for an unknown path under /api', async () => {
    const res = await getJson(`${server.baseUrl}/api/nope`);

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ meta: { code: 'NOT_FOUND', message: 'Not found.' }, data: null });
  });

  it('answers a 404 envelope for GET on the master data endpoint, which only takes POST', async () => {
    const res = await getJson(`${server.baseUrl}/api/application/getmasterdata`);

    expect(res.status).toBe(404);
    expect(res.body.meta.code).toBe('NOT_FOUND');
  });

  it('answers the 404 message in Simplified Chinese when asked', async () => {
    const res = await getJson(`${server.baseUrl}/api/nope?lang=sc`);

    expect(res.body.meta.message).toBe('找不到所需内容。');
  });
});

describe('security headers', () => {
  it('sends a Content-Security-Policy that allows no inline script', async () => {
    const response = await fetch(`${server.baseUrl}/api/health`);
    const csp = response.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src '));

    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it("forbids every <base> element (base-uri 'none'), so an injected one cannot redirect relative URLs", async () => {
    const response = await fetch(`${server.baseUrl}/api/health`);
    const csp = response.headers.get('content-security-policy') ?? '';
    const baseUri = csp.split(';').find((directive) => directive.trim().startsWith('base-uri '));

    expect(baseUri?.trim()).toBe("base-uri 'none'");
  });

  it('sends the usual hardening headers and no X-Powered-By', async () => {
    const response = await fetch(`${server.baseUrl}/`);

    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});

describe('the single-page app', () => {
  it('serves index.html for a deep client-side route', async () => {
    const response = await fetch(`${server.baseUrl}/form-a2-step2/some/deep/path`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX_HTML);
  });

  it('serves index.html at the root without caching it', async () => {
    const response = await fetch(`${server.baseUrl}/`);

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX_HTML);
  });

  it('serves hashed assets with a long, immutable cache', async () => {
    const response = await fetch(`${server.baseUrl}/assets/index-abc123.js`);

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a missing asset instead of index.html', async () => {
    const response = await fetch(`${server.baseUrl}/assets/missing-000.js`);

    expect(response.status).toBe(404);
  });

  it('keeps answering a 404 envelope for /api/nope while the app is served', async () => {
    const res = await getJson(`${server.baseUrl}/api/nope`);

    expect(res.status).toBe(404);
    expect(res.body.meta.code).toBe('NOT_FOUND');
  });
});
