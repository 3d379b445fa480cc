import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../api/http/rate-limit';
import { type ApiProcess, startApiProcess } from '../support/api-process';
import { type FreshDatabase, createTestDatabaseUrl } from '../support/fresh-postgres';
import { type Haproxy, startHaproxy } from '../support/haproxy';
import { TEST_OTP_SECRET } from '../support/login';

/**
 * A caller behind the documented HAProxy set-up (tests/support/haproxy.ts, docs/operations.md) cannot
 * choose the address the portal sees by sending X-Forwarded-For: HAProxy drops it and adds the address it
 * saw, and the app (TRUST_PROXY=1) believes exactly that one hop. The caller connects from 127.0.0.2, so
 * its address differs from HAProxy's own (127.0.0.1, the app's peer).
 */
const PORT = Number(process.env.E2E_PORT ?? 3300) + 40;
const CLIENT_ADDRESS = '127.0.0.2';

let fresh: FreshDatabase | undefined;
let dataDir: string;
let api: ApiProcess;
let lb: Haproxy;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'bd-forwarded-'));
  if (process.env.DATABASE_URL) fresh = await createTestDatabaseUrl(process.env.DATABASE_URL, 'bd_test');
  api = await startApiProcess(PORT + 1, {
    ...(fresh ? { DATABASE_URL: fresh.url } : { DATABASE_URL: '', DATA_DIR: dataDir }),
    OTP_SECRET: TEST_OTP_SECRET,
    DOCUMENT_STORAGE_DIR: path.join(dataDir, 'documents'),
    TRUST_PROXY: '1',
    LOG_LEVEL: 'info',
  });
  lb = await startHaproxy(PORT, [{ name: 'a', port: PORT + 1 }]);
}, 90_000);

afterAll(async () => {
  await lb?.stop();
  await api?.stop();
  await fresh?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** POST /api/drafts through HAProxy from 127.0.0.2, with a forged X-Forwarded-For. */
function createDraft(forged: string): Promise<number> {
  const body = JSON.stringify({ formKey: 'a2', answers: {}, step: 1, lang: 'en' });
  return new Promise((resolve, reject) => {
    const req = request(
      `${lb.url}/api/drafts`,
      {
        method: 'POST',
        localAddress: CLIENT_ADDRESS,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forged, connection: 'close' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The request lines the app logged for POST /api/drafts. */
function loggedAddresses(): string[] {
  return api
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { req?: { method?: string; url?: string; remoteAddress?: string } })
    .filter((entry) => entry.req?.method === 'POST' && entry.req.url === '/api/drafts')
    .map((entry) => entry.req?.remoteAddress ?? '');
}

describe('X-Forwarded-For through HAProxy', () => {
  it('forged addresses neither reset the rate limit nor reach the log: the app sees the address HAProxy saw', async () => {
    const limit = DEFAULT_RATE_LIMITS.draftCreate.points;
    const statuses: number[] = [];
    for (let i = 0; i <= limit + 1; i++) {
      // A new made-up address each time, alone or as a list, as a caller resetting its allowance would.
      const forged = i % 2 ? `203.0.113.${i}` : `198.51.100.${i}, 10.0.0.${i}`;
      statuses.push(await createDraft(forged));
    }
    // The log line of the last request may be written just after its answer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const addresses = loggedAddresses();
    console.info(
      `forged X-Forwarded-For through HAProxy: ${statuses.filter((s) => s === 201).length} created, ` +
        `${statuses.filter((s) => s === 429).length} refused 429 (limit ${limit}); addresses logged: ` +
        `${[...new Set(addresses)].join(', ')}`,
    );

    expect(statuses.slice(0, limit).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(limit)).toEqual([429, 429]);
    expect(addresses).toHaveLength(limit + 2);
    expect(new Set(addresses)).toEqual(new Set([CLIENT_ADDRESS]));
  }, 60_000);
});
