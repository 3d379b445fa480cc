import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { documentStorageFromEnv } from '../../api/adapters/document-storage';
import { createApp, healthOf } from '../../api/app';
import type { HealthData, LivenessData } from '../../api/modules/shared/health.routes';
import { type TestServer, getJson, listen } from '../support/http';
import { type S3Server, startS3Server } from '../support/s3-server';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

const silent = pino({ level: 'silent' });
let database: TestDatabase | undefined;
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  await database?.drop();
  server = undefined;
  database = undefined;
});

describe('GET /api/health', () => {
  it('answers 200 with the API and the database up', async () => {
    database = await createTestDatabase();
    server = await listen(createApp({ db: database, logger: silent }));

    const res = await getJson<HealthData>(`${server.baseUrl}/api/health`);

    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ code: '200', message: 'The service is available.' });
    expect(res.body.data).toMatchObject({ api: 'up', database: 'up', databaseKind: database.kind });
    expect(Number.isNaN(Date.parse(res.body.data.time))).toBe(false);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 with the database down once the database is closed', async () => {
    database = await createTestDatabase();
    server = await listen(createApp({ db: database, logger: silent }));
    await database.close();

    const res = await getJson<HealthData>(`${server.baseUrl}/api/health`, { 'accept-language': 'zh-TW' });

    expect(res.status).toBe(503);
    expect(res.body.meta).toEqual({ code: 'SERVICE_UNAVAILABLE', message: '資料庫沒有回應。' });
    expect(res.body.data).toMatchObject({ api: 'up', database: 'down' });
  });

  it('checks the database once for a flood of requests within a second, and again after the second', async () => {
    database = await createTestDatabase();
    const real = database;
    let pings = 0;
    const counted = {
      ...real,
      ping: (timeoutMs?: number) => {
        pings += 1;
        return real.ping(timeoutMs);
      },
    };
    const app = createApp({ db: counted, logger: silent });
    server = await listen(app);
    const url = `${server.baseUrl}/api/health`;

    const first = await getJson<HealthData>(url);
    const flood = await Promise.all(Array.from({ length: 20 }, () => getJson<HealthData>(url)));
    const ready = await getJson<HealthData>(`${url}/ready`);
    const within = { pings, checks: healthOf(app).checks };
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await getJson<HealthData>(url);

    expect([first, ...flood, ready].every((r) => r.status === 200)).toBe(true);
    expect(flood.every((r) => r.body.data.time === first.body.data.time)).toBe(true);
    expect(within).toEqual({ pings: 1, checks: 1 });
    expect({ pings, checks: healthOf(app).checks }).toEqual({ pings: 2, checks: 2 });
  });
});

describe('GET /api/health/live', () => {
  it('answers 200 without asking the database, even with the database closed', async () => {
    database = await createTestDatabase();
    const app = createApp({ db: database, logger: silent });
    server = await listen(app);
    await database.close();

    const live = await getJson<LivenessData>(`${server.baseUrl}/api/health/live`);
    const ready = await getJson<HealthData>(`${server.baseUrl}/api/health/ready`);

    expect(live.status).toBe(200);
    expect(live.body.data).toEqual({ api: 'up', time: expect.any(String) as string });
    expect(healthOf(app).checks).toBe(1); // the readiness request's, not the liveness one's
    expect(ready.status).toBe(503);
  });
});

describe('GET /api/health/ready with the documents in an S3 bucket', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3?.stop());

  it('is ready while the bucket answers, and out (503, storage down) while it does not; live stays 200', async () => {
    database = await createTestDatabase();
    const up = documentStorageFromEnv('unused', s3.env);
    const missing = documentStorageFromEnv('unused', { ...s3.env, S3_BUCKET: 'no-such-bucket' });
    const withBucket = await listen(createApp({ db: database, logger: silent, documents: { storage: up } }));
    server = await listen(createApp({ db: database, logger: silent, documents: { storage: missing } }));

    const ready = await getJson<HealthData>(`${withBucket.baseUrl}/api/health/ready`);
    await withBucket.close();
    const out = await getJson<HealthData>(`${server.baseUrl}/api/health/ready`, { 'accept-language': 'en' });
    const live = await getJson<LivenessData>(`${server.baseUrl}/api/health/live`);

    expect(ready.status).toBe(200);
    expect(ready.body.data).toMatchObject({ database: 'up', storage: 'up' });
    expect(out.status).toBe(503);
    expect(out.body.meta).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The document storage cannot be written.',
    });
    expect(out.body.data).toMatchObject({ database: 'up', storage: 'down' });
    expect(live.status).toBe(200);
  });
});
