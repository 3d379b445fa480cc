import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import { createMasterDataService } from '../../api/modules/shared/master-data';
import { seed } from '../../drizzle/seed';
import { masterData } from '../../drizzle/schema';
import type { MasterDataEntry } from '../../machines/rules/master-data';
import { type TestServer, listen, postJson } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

let database: TestDatabase;
let server: TestServer;
let endpoint: string;

beforeAll(async () => {
  database = await createTestDatabase({ seed: true });
  server = await listen(createApp({ db: database, logger: pino({ level: 'silent' }) }));
  endpoint = `${server.baseUrl}/api/application/getmasterdata`;
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('POST /api/application/getmasterdata', () => {
  it('answers the seeded idle time-out of 30 minutes in the envelope', async () => {
    const res = await postJson<MasterDataEntry[]>(endpoint, {
      type: 'admin_setting',
      code: 'logout_idletime_frontend',
    });

    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ code: '200', message: 'OK.' });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      dataValue: '30',
      type: 'admin_setting',
      code: 'logout_idletime_frontend',
    });
  });

  it('trims spaces around type and code', async () => {
    const res = await postJson<MasterDataEntry[]>(endpoint, {
      type: '  admin_setting ',
      code: ' logout_idletime_frontend',
    });

    expect(res.status).toBe(200);
    expect(res.body.data[0]?.dataValue).toBe('30');
  });

  it('answers an empty list for an unknown type, not an error', async () => {
    const res = await postJson(endpoint, { type: 'no_such_type', code: 'logout_idletime_frontend' });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ meta: { code: '200', message: 'OK.' }, data: [] });
  });

  it('lists several values of one type and code in sort order', async () => {
    await database.db.insert(masterData).values([
      { type: 'test_list', code: 'colours', dataValue: 'blue', sortOrder: 2 },
      { type: 'test_list', code: 'colours', dataValue: 'red', sortOrder: 1 },
    ]);

    const res = await postJson<MasterDataEntry[]>(endpoint, { type: 'test_list', code: 'colours' });

    expect(res.body.data.map((entry) => entry.dataValue)).toEqual(['red', 'blue']);
  });

  it('answers its message in Traditional Chinese when the caller asks with lang=tc', async () => {
    const res = await postJson(`${endpoint}?lang=tc`, {
      type: 'admin_setting',
      code: 'logout_idletime_frontend',
    });

    expect(res.body.meta.message).toBe('成功。');
  });
});

describe('seed', () => {
  it('leaves one idle time-out row however often it runs', async () => {
    await seed(database.db);
    await seed(database.db);

    const res = await postJson<MasterDataEntry[]>(endpoint, {
      type: 'admin_setting',
      code: 'logout_idletime_frontend',
    });

    expect(res.body.data).toHaveLength(1);
  });
});

describe('the master data cache', () => {
  it('reuses an answer until its time is up, then reads the database again', async () => {
    let clock = 0;
    const service = createMasterDataService(database.db, { cacheTtlMs: 1_000, now: () => clock });
    const query = { type: 'test_cache', code: 'value' };
    await database.db.insert(masterData).values({ ...query, dataValue: 'first' });
    expect((await service.find(query)).map((entry) => entry.dataValue)).toEqual(['first']);

    await database.db
      .update(masterData)
      .set({ dataValue: 'second' })
      .where(eq(masterData.type, 'test_cache'));
    const beforeExpiry = await service.find(query);
    clock = 1_001;
    const afterExpiry = await service.find(query);

    expect(beforeExpiry.map((entry) => entry.dataValue)).toEqual(['first']);
    expect(afterExpiry.map((entry) => entry.dataValue)).toEqual(['second']);
  });

  it('keeps no more pairs than its limit', async () => {
    const service = createMasterDataService(database.db, { maxEntries: 2 });
    await database.db.insert(masterData).values({ type: 'test_limit', code: 'a', dataValue: 'old' });
    await service.find({ type: 'test_limit', code: 'a' });
    await service.find({ type: 'test_limit', code: 'b' });
    await service.find({ type: 'test_limit', code: 'c' });
    await database.db.update(masterData).set({ dataValue: 'new' }).where(eq(masterData.type, 'test_limit'));

    const again = await service.find({ type: 'test_limit', code: 'a' });

    expect(again.map((entry) => entry.dataValue)).toEqual(['new']);
  });
});
