import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../drizzle/db';
import { createTestDatabaseUrl } from '../support/fresh-postgres';

/**
 * Processes that start at once on a fresh database (a deployment of N processes) each apply the
 * migrations at start: under an advisory lock, one migrates and the others find it done.
 */
describe.skipIf(!process.env.DATABASE_URL)('migrations at start', () => {
  it('are applied once when four processes open a fresh database at the same moment', async () => {
    const fresh = await createTestDatabaseUrl(process.env.DATABASE_URL ?? '', 'bd_test');
    try {
      const opened = await Promise.allSettled([1, 2, 3, 4].map(() => openDatabase({ url: fresh.url })));
      const databases = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      try {
        expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual([
          'ok',
          'ok',
          'ok',
          'ok',
        ]);
        const result: unknown = await databases[0]?.db.execute(
          sql`select count(*)::int as n, count(distinct hash)::int as d from drizzle.__drizzle_migrations`,
        );
        const [row] = result as { n: number; d: number }[];
        expect(row?.n).toBeGreaterThan(0);
        expect(row?.n).toBe(row?.d);
      } finally {
        await Promise.all(databases.map((d) => d.close()));
      }
    } finally {
      await fresh.drop();
    }
  });
});
