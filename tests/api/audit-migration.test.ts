/**
 * Migration 0019 (docs/decisions/033-audit-log.md) over a database that already has audit rows: they are
 * kept as they were and start the hash chain, which later rows continue. On PGlite, or on the Postgres of
 * DATABASE_URL (a database of its own).
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { appendAudit } from '../../api/modules/shared/audit';
import { verifyAuditChain } from '../../api/modules/shared/audit-chain';
import { type Db, migrationsFolder, PGLITE_EXTENSIONS } from '../../drizzle/db';
import * as schema from '../../drizzle/schema';
import { createTestDatabaseUrl } from '../support/fresh-postgres';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The migrations folder as it was before 0019 (its files and a journal that ends at 0018). */
async function migrationsBefore0019(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bd-migrations-0018-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, 'meta'));
  for (const name of await readdir(migrationsFolder)) {
    if (name.endsWith('.sql') && name < '0019')
      await copyFile(path.join(migrationsFolder, name), path.join(dir, name));
  }
  const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { idx: number }[];
  };
  journal.entries = journal.entries.filter((e) => e.idx <= 18);
  await writeFile(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

/** A database migrated to 0018 (as its superuser), and a way to take it to the latest migration. */
async function databaseAt0018(): Promise<{ db: Db; migrateAll: () => Promise<void> }> {
  const old = await migrationsBefore0019();
  const url = process.env.DATABASE_URL;
  if (url) {
    const fresh = await createTestDatabaseUrl(url, 'bd_test');
    const client = postgres(fresh.url, { max: 2, onnotice: () => {} });
    cleanups.push(() => fresh.drop());
    cleanups.push(() => client.end());
    const db = drizzlePostgres({ client, schema });
    await migratePostgres(db, { migrationsFolder: old });
    return {
      db: db as unknown as Db,
      migrateAll: () => migratePostgres(db, { migrationsFolder }),
    };
  }
  // The extensions the portal's PGlite loads (pg_trgm: the console search's migration needs it).
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  cleanups.push(() => client.close());
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: old });
  return { db: db as unknown as Db, migrateAll: () => migratePglite(db, { migrationsFolder }) };
}

describe('the audit log migration (0021) over existing audit rows', () => {
  it('keeps them as they were and chains them, and later rows continue the chain', async () => {
    const { db, migrateAll } = await databaseAt0018();
    const at = new Date('2026-03-02T01:02:03.456Z');
    // Written as 0018 allowed (its columns), by the superuser.
    await db.execute(sql`insert into audit_events (at, actor, actor_ref, event, before, address) values
      (${at.toISOString()}, 'caseOfficer', 'staff:1', 'case.assign', '{"status":"SUBMITTED"}', null),
      (${at.toISOString()}, 'applicant', 'session:7', 'case.withdraw', null, '192.0.2.1')`);

    await migrateAll();

    const rows = await db.select().from(schema.auditEvents).orderBy(asc(schema.auditEvents.id));
    expect(rows.map((r) => [r.actor, r.actorRef, r.event, r.at.toISOString(), r.address])).toEqual([
      ['caseOfficer', 'staff:1', 'case.assign', at.toISOString(), null],
      ['applicant', 'session:7', 'case.withdraw', at.toISOString(), '192.0.2.1'],
    ]);
    expect(rows[0]?.prevHash).toBeNull();
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 2 });

    await appendAudit(db, { at, actor: 'system', actorRef: 'system', event: 'test.after' });
    const verdict = await verifyAuditChain(db);
    expect(verdict).toMatchObject({ ok: true, rows: 3 });
  });
});
