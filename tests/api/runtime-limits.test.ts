import { Readable } from 'node:stream';
import { pino } from 'pino';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeApp, createApp } from '../../api/app';
import type { DocumentStorage } from '../../api/adapters/storage';
import { type TestServer, listen, postJson } from '../support/http';
import { landscapeA4 } from '../support/pdf-corpus';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { type ApplicationHarness, startApplicationHarness } from './application-harness';

/**
 * The bounds of docs/decisions/032-runtime-limits.md: a database that does not answer gives 503 with
 * Retry-After (by the request time-out on either engine; by Postgres's lock_timeout on Postgres), and a
 * full disk gives 507, in the caller's language, never a hang or a 500.
 */
const silent = pino({ level: 'silent' });
const MASTER_DATA = { type: 'admin_setting', code: 'logout_idletime_frontend' };

/** Holds the database up: on Postgres a session locks master_data; on PGlite a transaction holds its one connection. */
async function hangDatabase(database: TestDatabase): Promise<() => Promise<void>> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  if (database.url) {
    const other = postgres(database.url, { max: 1, onnotice: () => {} });
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const held = other.begin(async (sql) => {
      await sql`lock table master_data in access exclusive mode`;
      locked();
      await released;
    });
    await isLocked;
    return async () => {
      release();
      await held;
      await other.end();
    };
  }
  const connection = database.connection;
  if (connection?.kind !== 'pglite') throw new Error('no PGlite client');
  let inside: () => void = () => undefined;
  const isInside = new Promise<void>((resolve) => (inside = resolve));
  const held = connection.client.transaction(async () => {
    inside();
    await released;
  });
  await isInside;
  return async () => {
    release();
    await held;
  };
}

describe('a database that does not answer', () => {
  let database: TestDatabase;
  let server: TestServer;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    database = await createTestDatabase({ seed: true });
    app = createApp({ db: database, logger: silent, masterDataCacheSeconds: 0, requestTimeoutMs: 2_000 });
    server = await listen(app);
  });
  afterAll(async () => {
    await server?.close();
    await closeApp(app);
    await database?.drop();
  });

  it('is answered 503 with Retry-After at the request time-out, in the caller’s language, and the next request after it is served', async () => {
    const release = await hangDatabase(database);
    const started = performance.now();
    const hung = await postJson(`${server.baseUrl}/api/application/getmasterdata`, MASTER_DATA, {
      'accept-language': 'zh-HK',
    });
    const seconds = (performance.now() - started) / 1000;
    await release();
    console.info(
      `hung database (${database.kind}), request time-out 2 s: ${hung.status} after ${seconds.toFixed(2)} s`,
    );
    const after = await postJson(`${server.baseUrl}/api/application/getmasterdata`, MASTER_DATA);

    expect(hung.status).toBe(503);
    expect(hung.headers.get('retry-after')).toBe('30');
    expect(hung.body.meta).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: '服務回應時間過長，請於一分鐘後再試。',
    });
    expect(seconds).toBeGreaterThanOrEqual(1.9);
    expect(seconds).toBeLessThan(10);
    expect(after.status).toBe(200);
  }, 30_000);
});

describe.skipIf(!process.env.DATABASE_URL)(
  'Postgres’s own time-outs (PGlite cannot time a statement out)',
  () => {
    let database: TestDatabase;
    let server: TestServer;
    let app: ReturnType<typeof createApp>;

    beforeAll(async () => {
      database = await createTestDatabase({ seed: true });
      // The server's own defaults (openDatabase, createApp): statement_timeout 20 s, so lock_timeout
      // 10 s, and the request time-out 30 s.
      app = createApp({ db: database, logger: silent, masterDataCacheSeconds: 0 });
      server = await listen(app);
    });
    afterAll(async () => {
      await server?.close();
      await closeApp(app);
      await database?.drop();
    });

    it('a table locked by another session answers 503 SERVICE_UNAVAILABLE at lock_timeout, before the request time-out', async () => {
      const release = await hangDatabase(database);
      const started = performance.now();
      const hung = await postJson(`${server.baseUrl}/api/application/getmasterdata`, MASTER_DATA, {
        'accept-language': 'zh-CN',
      });
      const seconds = (performance.now() - started) / 1000;
      await release();
      console.info(
        `hung database (postgres, LOCK TABLE), defaults: ${hung.status} after ${seconds.toFixed(2)} s`,
      );

      expect(hung.status).toBe(503);
      expect(hung.headers.get('retry-after')).toBe('30');
      expect(hung.body.meta).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: '服务目前繁忙，请于一分钟后再试。',
      });
      expect(seconds).toBeGreaterThanOrEqual(9.5);
      expect(seconds).toBeLessThan(20);
    }, 40_000);
  },
);

/** The local storage behind a disk that fills up after 512 bytes of a write (the error the kernel gives). */
function fillingDisk(local: DocumentStorage): DocumentStorage {
  async function* upToFull(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    let written = 0;
    for await (const chunk of source) {
      written += chunk.length;
      if (written > 512)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
          errno: -28,
          syscall: 'write',
        });
      yield chunk;
    }
  }
  return {
    ...local,
    put(key, source) {
      const bytes = source instanceof Readable ? source : Readable.from([Buffer.from(source)]);
      return local.put(key, Readable.from(upToFull(bytes)));
    },
  };
}

describe('a full disk', () => {
  let h: ApplicationHarness;

  beforeAll(async () => {
    h = await startApplicationHarness({ wrapStorage: fillingDisk });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers an upload 507 INSUFFICIENT_STORAGE in each language and keeps nothing', async () => {
    const draft = await h.newDraft();
    const type = h.form.documents[0]?.id ?? '';
    const content = await landscapeA4();
    expect(content.length).toBeGreaterThan(512);

    const answers = [];
    for (const lang of ['en', 'sc', 'tc'])
      answers.push(await h.upload(draft, type, content, 'plan.pdf', `?lang=${lang}`));

    expect(answers.map((a) => a.status)).toEqual([507, 507, 507]);
    expect(answers.map((a) => a.body.meta)).toEqual([
      {
        code: 'INSUFFICIENT_STORAGE',
        message:
          'The document could not be stored because the storage is full. Nothing was kept; please try again later.',
      },
      {
        code: 'INSUFFICIENT_STORAGE',
        message: '储存空间已满，文件未能保存，亦没有保留任何内容。请稍后再试。',
      },
      {
        code: 'INSUFFICIENT_STORAGE',
        message: '儲存空間已滿，文件未能儲存，亦沒有保留任何內容。請稍後再試。',
      },
    ]);
    expect(await h.storedFiles()).toEqual([]);
  });
});
