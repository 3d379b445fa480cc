import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import type { HealthData } from '../../api/modules/shared/health.routes';
import { type TestServer, getJson, listen } from '../support/http';
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
});
