import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, NO_LOADING_HEADER, type ApiClientHooks } from '../../ui/api/client';

/** A real HTTP server on loopback that answers as the portal's API does, to test the client's rules. */
let server: Server;
let base: string;
const seen: {
  method: string;
  url: string;
  auth: string | undefined;
  body: string;
  type: string | undefined;
  noLoading: string | undefined;
}[] = [];

const envelope = (code: string, message: string, data: unknown = null) =>
  JSON.stringify({ meta: { code, message }, data });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({
        method: req.method ?? '',
        url: url.pathname + url.search,
        auth: req.headers.authorization,
        body,
        type: req.headers['content-type'],
        noLoading: req.headers[NO_LOADING_HEADER] as string | undefined,
      });
      const send = (status: number, text: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(text);
      };
      const delay = Number(url.searchParams.get('delay') ?? 0);
      setTimeout(() => {
        switch (url.pathname) {
          case '/api/ok':
            return send(200, envelope('200', 'OK', { echo: body || null, query: url.search }));
          case '/api/unauthorized':
            return send(401, envelope('UNAUTHORIZED', 'Your session has ended. Please log in again.'));
          case '/api/rule':
            return send(422, envelope('RULE', 'Every page must be landscape A4 or A3.'));
          case '/api/limited':
            return send(429, envelope('OTP_RATE_LIMITED', 'Please try again in 1 minute.'), {
              'Retry-After': '60',
            });
          case '/api/bare-error':
            return send(500, 'not json');
          default:
            return send(404, envelope('NOT_FOUND', 'Not found.'));
        }
      }, delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Recorder extends ApiClientHooks {
  token: string;
  errors: string[];
  unauthorized: number;
  loading: number[];
}

function recorder(token = ''): Recorder {
  const r: Recorder = {
    token,
    errors: [],
    unauthorized: 0,
    loading: [],
    getToken: () => r.token,
    onUnauthorized: () => {
      r.unauthorized += 1;
      r.token = '';
    },
    onError: (m) => r.errors.push(m),
    onLoading: (d) => r.loading.push(d),
    messages: () => ({ timeout: 'The request timed out.', network: 'The portal could not be reached.' }),
  };
  return r;
}

beforeEach(() => {
  seen.length = 0;
});

describe('API client', () => {
  it('sends a bearer header built from the stored token', async () => {
    const hooks = recorder('tok-123');
    await createApiClient(hooks, base).get('ok');
    expect(seen[0]?.auth).toBe('Bearer tok-123');
  });

  it('sends no Authorization header when logged out', async () => {
    await createApiClient(recorder(''), base).get('ok');
    expect(seen[0]?.auth).toBeUndefined();
  });

  it('passes get and delete params as the query string, and post and put bodies as JSON', async () => {
    const client = createApiClient(recorder(), base);
    await client.get('ok', { page: 2, q: 'a b', skip: undefined });
    await client.delete('ok', { id: 7 });
    const posted = await client.post<{ echo: string }>('ok', { type: 'admin_setting' });
    await client.put('ok', { a: 1 });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/ok?page=2&q=a+b',
      'DELETE /api/ok?id=7',
      'POST /api/ok',
      'PUT /api/ok',
    ]);
    expect(posted.data.echo).toBe('{"type":"admin_setting"}');
    expect(seen[3]?.type).toContain('application/json');
  });

  it('uploads multipart form data', async () => {
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'plan.pdf');
    await createApiClient(recorder(), base).upload('ok', form);
    expect(seen[0]?.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]?.body).toContain('filename="plan.pdf"');
  });

  it('cancels an identical request still in flight when the same one is sent again', async () => {
    const client = createApiClient(recorder(), base);
    const first = client.get('ok', { delay: 300 });
    const second = client.get('ok', { delay: 10 });
    const third = client.get('ok', { delay: 300 });
    await expect(first).rejects.toMatchObject({ aborted: true });
    await expect(second).resolves.toMatchObject({ meta: { code: '200' } });
    await expect(third).resolves.toMatchObject({ meta: { code: '200' } });
  });

  it('does not cancel requests that differ in body', async () => {
    const client = createApiClient(recorder(), base);
    const [a, b] = await Promise.all([
      client.post('ok?delay=100', { n: 1 }),
      client.post('ok?delay=100', { n: 2 }),
    ]);
    expect([a.meta.code, b.meta.code]).toEqual(['200', '200']);
  });

  it('shows the loading overlay per request unless the request is marked no-loading', async () => {
    const hooks = recorder();
    const client = createApiClient(hooks, base);
    await client.get('ok');
    await client.get('ok', undefined, { noLoading: true });
    await client.get('ok', undefined, { ky: { headers: { [NO_LOADING_HEADER]: 'true' } } });
    expect(hooks.loading).toEqual([1, -1]);
    expect(seen[2]?.noLoading).toBeUndefined();
  });

  it('clears the token and calls home on a 401, and rejects', async () => {
    const hooks = recorder('old-token');
    await expect(createApiClient(hooks, base).get('unauthorized')).rejects.toMatchObject({ status: 401 });
    expect(hooks.unauthorized).toBe(1);
    expect(hooks.token).toBe('');
    expect(hooks.errors).toEqual([]);
  });

  it('shows a time-out as an error toast that says so', async () => {
    const hooks = recorder();
    const client = createApiClient(hooks, base);
    // 60 s is the real limit; ky's own option shortens it here so the test stays quick.
    await expect(client.get('ok', { delay: 500 }, { ky: { timeout: 100 } })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(hooks.errors).toEqual(['The request timed out.']);
  });

  it('shows meta.message of an error answer as an error toast and keeps the status and code', async () => {
    const hooks = recorder();
    const error = await createApiClient(hooks, base)
      .post('rule', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'RULE' });
    expect(hooks.errors).toEqual(['Every page must be landscape A4 or A3.']);
  });

  it('reads Retry-After of a 429', async () => {
    const error = await createApiClient(recorder(), base)
      .post('limited', {})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 60 });
  });

  it('shows no toast for a request whose caller shows the error in place', async () => {
    const hooks = recorder();
    await expect(createApiClient(hooks, base).post('rule', {}, { quiet: true })).rejects.toMatchObject({
      status: 422,
    });
    expect(hooks.errors).toEqual([]);
  });

  it('rejects an answer without an envelope without a toast of its body', async () => {
    const hooks = recorder();
    await expect(createApiClient(hooks, base).get('bare-error')).rejects.toMatchObject({
      status: 500,
      body: null,
    });
    expect(hooks.errors).toEqual([]);
  });

  it('shows a network failure as an error toast', async () => {
    const hooks = recorder();
    await expect(createApiClient(hooks, 'http://127.0.0.1:1/api').get('ok')).rejects.toMatchObject({
      code: 'NETWORK',
    });
    expect(hooks.errors).toEqual(['The portal could not be reached.']);
  });
});
