import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { type RunningServer, startServer } from '../../api/server';
import type { MasterDataEntry } from '../../machines/rules/master-data';
import { postJson } from '../support/http';
import { count, isNull } from 'drizzle-orm';
import { applications } from '../../drizzle/schema';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

const silent = pino({ level: 'silent' });
const lookup = { type: 'admin_setting', code: 'logout_idletime_frontend' };
const onPostgres = Boolean(process.env.DATABASE_URL);

let dataDir: string;
let testDatabase: TestDatabase | undefined;

/** Postgres: a fresh bd_test_ database (migrated by startServer); PGlite: a directory under tmp. */
function databaseOptions() {
  return testDatabase?.url ? { databaseUrl: testDatabase.url } : { dataDir };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'bd-pglite-'));
  if (onPostgres) testDatabase = await createTestDatabase();
});

afterAll(async () => {
  await testDatabase?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('startServer', () => {
  it('migrates, seeds and answers on a free port, and stops answering once closed', async () => {
    const running = await startServer({ port: 0, host: '127.0.0.1', logger: silent, ...databaseOptions() });

    const res = await postJson<MasterDataEntry[]>(`${running.url}/api/application/getmasterdata`, lookup);
    await running.close();

    expect(res.status).toBe(200);
    expect(res.body.data[0]?.dataValue).toBe('30');
    await expect(fetch(`${running.url}/api/health`)).rejects.toThrow();
  });

  it('keeps one seeded value when started again on the same database', async () => {
    const running = await startServer({ port: 0, host: '127.0.0.1', logger: silent, ...databaseOptions() });

    const res = await postJson<MasterDataEntry[]>(`${running.url}/api/application/getmasterdata`, lookup);
    await running.close();

    expect(res.body.data).toHaveLength(1);
  });

  it('indexes the cases for the console search in the background once it listens (decision 034)', async () => {
    const running = await startServer({ port: 0, host: '127.0.0.1', logger: silent, ...databaseOptions() });
    try {
      const db = running.database.db;
      await db.update(applications).set({ searchText: null });
      const [{ n: cases } = { n: 0 }] = await db.select({ n: count() }).from(applications);
      expect(cases).toBeGreaterThan(0);
      await running.close();
      const again = await startServer({ port: 0, host: '127.0.0.1', logger: silent, ...databaseOptions() });
      try {
        const pending = async () =>
          (
            await again.database.db
              .select({ n: count() })
              .from(applications)
              .where(isNull(applications.searchText))
          )[0]?.n;
        await expect.poll(pending, { timeout: 20_000 }).toBe(0);
      } finally {
        await again.close();
      }
    } finally {
      await running.close();
    }
  });

  it('lets a request already in flight finish when it is closed', async () => {
    const running: RunningServer = await startServer({
      port: 0,
      host: '127.0.0.1',
      logger: silent,
      ...databaseOptions(),
    });
    const body = JSON.stringify(lookup);
    const half = Math.floor(body.length / 2);

    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${running.url}/api/application/getmasterdata`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, half));
      // The server has the request's headers: now shut down, then send the rest of the body.
      setTimeout(() => req.end(body.slice(half)), 200);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = running.close();

    const { status, text } = await answer;
    await closed;

    expect(status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ meta: { code: '200' } });
  });
});
