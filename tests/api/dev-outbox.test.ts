import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp, resolveOtpSecret } from '../../api/app';
import { noVirusScanner } from '../../api/adapters/virus-scanner';
import { type TestServer, getJson, listen } from '../support/http';
import { TEST_OTP_SECRET } from '../support/login';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

const silent = pino({ level: 'silent' });
const nodeEnv = process.env.NODE_ENV;
const devTools = process.env.DEV_TOOLS;
let staticDir: string;
let database: TestDatabase;
let server: TestServer | undefined;

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'bd-static-'));
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>portal</title>');
  database = await createTestDatabase({ seed: true });
});

afterEach(async () => {
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  if (devTools === undefined) delete process.env.DEV_TOOLS;
  else process.env.DEV_TOOLS = devTools;
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  await database?.drop();
  await rm(staticDir, { recursive: true, force: true });
});

describe('the development tools (/api/dev, /dev pages)', () => {
  // Production needs a virus scanner (CLAMD_HOST); these tests are about the routes only.
  const app = () =>
    listen(
      createApp({
        db: database,
        logger: silent,
        auth: { otpSecret: TEST_OTP_SECRET },
        staticDir,
        documents: { scanner: noVirusScanner },
      }),
    );

  it('exist when DEV_TOOLS=1', async () => {
    process.env.NODE_ENV = 'development';
    process.env.DEV_TOOLS = '1';
    server = await app();

    const res = await getJson(`${server.baseUrl}/api/dev/outbox`);
    const page = await fetch(`${server.baseUrl}/dev/outbox`);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(page.status).toBe(200);
  });

  it.each([
    ['development without DEV_TOOLS', 'development', undefined],
    ['NODE_ENV unset', undefined, undefined],
    ['DEV_TOOLS=0', 'development', '0'],
    ['production', 'production', undefined],
  ])('do not exist in %s: 404 for the API and the pages', async (_name, env, devTools) => {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
    if (devTools === undefined) delete process.env.DEV_TOOLS;
    else process.env.DEV_TOOLS = devTools;
    server = await app();

    const outbox = await getJson(`${server.baseUrl}/api/dev/outbox`);
    const phone = await getJson(`${server.baseUrl}/api/dev/iamsmart`);
    const page = await fetch(`${server.baseUrl}/dev/iamsmart`);
    const chain = await getJson(`${server.baseUrl}/api/dev/audit-chain`);

    expect(chain.status).toBe(404);
    expect(outbox.status).toBe(404);
    expect(outbox.body.meta.code).toBe('NOT_FOUND');
    expect(phone.status).toBe(404);
    expect(page.status).toBe(404);
  });
});

describe('the audit chain of the running server (/api/dev/audit-chain)', () => {
  it("answers the chain's verdict and the rows by event, as `npm run audit:verify` would", async () => {
    process.env.NODE_ENV = 'development';
    process.env.DEV_TOOLS = '1';
    server = await listen(
      createApp({
        db: database,
        logger: silent,
        auth: { otpSecret: TEST_OTP_SECRET },
        staticDir,
        documents: { scanner: noVirusScanner },
      }),
    );
    const before = await getJson<{ ok: boolean; rows: number; events: Record<string, number> }>(
      `${server.baseUrl}/api/dev/audit-chain`,
    );
    // A code asked for an unknown case is audited too (the refusal), and the chain still checks.
    await fetch(`${server.baseUrl}/api/auth/otp/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ applicationNo: 'A2-2026-999999', contact: 'nobody@example.hk' }),
    });
    const after = await getJson<{ ok: boolean; rows: number; events: Record<string, number> }>(
      `${server.baseUrl}/api/dev/audit-chain`,
    );

    expect(before.status).toBe(200);
    expect(after.body.data).toMatchObject({ ok: true });
    expect(after.body.data.rows).toBe(before.body.data.rows + 1);
    expect(after.body.data.events['otp.send']).toBe((before.body.data.events['otp.send'] ?? 0) + 1);
    expect(Object.values(after.body.data.events).reduce((a, b) => a + b, 0)).toBe(after.body.data.rows);
  });
});

describe('DEV_TOOLS', () => {
  it('takes only 0 or 1: anything else is refused when the app is made', () => {
    process.env.DEV_TOOLS = 'true';

    expect(() => createApp({ db: database, logger: silent, auth: { otpSecret: TEST_OTP_SECRET } })).toThrow(
      /DEV_TOOLS must be one of 0, 1/,
    );
  });
});

describe('the one-time password secret', () => {
  it('is required in production', () => {
    expect(() => resolveOtpSecret(undefined, silent, { NODE_ENV: 'production' })).toThrow(/OTP_SECRET/);
  });

  it('must be at least 32 characters', () => {
    expect(() => resolveOtpSecret(undefined, silent, { OTP_SECRET: 'short' })).toThrow(/32 characters/);
  });

  it('comes from OTP_SECRET when set', () => {
    expect(resolveOtpSecret(undefined, silent, { OTP_SECRET: TEST_OTP_SECRET })).toBe(TEST_OTP_SECRET);
  });

  it('is random per process in development, with a warning', () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });

    const first = resolveOtpSecret(undefined, logger, {});
    const second = resolveOtpSecret(undefined, logger, {});

    expect(first).not.toBe(second);
    expect(warnings.join('')).toContain('OTP_SECRET is not set');
  });
});
