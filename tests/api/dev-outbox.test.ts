import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp, resolveOtpSecret } from '../../api/app';
import { noVirusScanner } from '../../api/adapters/virus-scanner';
import { type TestServer, getJson, listen } from '../support/http';
import { TEST_OTP_SECRET } from '../support/login';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

const silent = pino({ level: 'silent' });
const nodeEnv = process.env.NODE_ENV;
let database: TestDatabase;
let server: TestServer | undefined;

beforeAll(async () => {
  database = await createTestDatabase({ seed: true });
});

afterEach(async () => {
  process.env.NODE_ENV = nodeEnv;
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  await database?.drop();
});

describe('GET /api/dev/outbox', () => {
  it('exists outside production', async () => {
    process.env.NODE_ENV = 'development';
    server = await listen(createApp({ db: database, logger: silent, auth: { otpSecret: TEST_OTP_SECRET } }));

    const res = await getJson(`${server.baseUrl}/api/dev/outbox`);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('does not exist in production: 404', async () => {
    process.env.NODE_ENV = 'production';
    // Production needs a virus scanner (CLAMD_HOST); this test is about the routes only.
    server = await listen(
      createApp({
        db: database,
        logger: silent,
        auth: { otpSecret: TEST_OTP_SECRET },
        documents: { scanner: noVirusScanner },
      }),
    );

    const res = await getJson(`${server.baseUrl}/api/dev/outbox`);

    expect(res.status).toBe(404);
    expect(res.body.meta.code).toBe('NOT_FOUND');
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
