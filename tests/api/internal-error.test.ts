import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import type { Database, Db } from '../../drizzle/db';
import { type TestServer, listen, postJson } from '../support/http';

/** A database whose every query fails, as a broken connection or a bug would. */
const brokenDatabase: Database = {
  db: {
    select() {
      throw new Error('relation "secret_table" does not exist at /srv/app/internal.ts:42');
    },
  } as unknown as Db,
  kind: 'pglite',
  ping: async () => {},
  close: async () => {},
};

let server: TestServer;
const logged: unknown[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  server = await listen(createApp({ db: brokenDatabase, logger }));
});

afterAll(async () => {
  await server?.close();
});

describe('an unexpected error', () => {
  it('answers 500 with a generic message and without the error detail', async () => {
    const res = await postJson(`${server.baseUrl}/api/application/getmasterdata`, {
      type: 'admin_setting',
      code: 'logout_idletime_frontend',
    });

    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      meta: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again later.' },
      data: null,
    });
    expect(JSON.stringify(res.body)).not.toContain('secret_table');
  });

  it('answers the generic message in Traditional Chinese when asked', async () => {
    const res = await postJson(`${server.baseUrl}/api/application/getmasterdata?lang=tc`, {
      type: 'admin_setting',
      code: 'other',
    });

    expect(res.body.meta.message).toBe('系統出現問題，請稍後再試。');
  });

  it('logs the error with its stack for operations', () => {
    const entry = logged.find(
      (line): line is { msg: string; err: { stack: string } } =>
        typeof line === 'object' && line !== null && (line as { msg?: unknown }).msg === 'unhandled error',
    );

    expect(entry?.err.stack).toContain('secret_table');
  });
});
