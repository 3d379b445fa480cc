/**
 * The PGlite template of the build (scripts/pglite-template.ts, run by `npm run build`, which `npm test`
 * runs first): a new data directory starts from it, and it is a migrated database, the same as one made
 * by initdb and the migrations.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { openDatabase, PGLITE_TEMPLATE } from '../../drizzle/db';
import { masterData } from '../../drizzle/schema';
import { seed } from '../../drizzle/seed';

let dataDir: string | undefined;
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the PGlite template', () => {
  it('makes a new data directory a migrated database that takes the seed and survives a reopen', async () => {
    expect(existsSync(PGLITE_TEMPLATE), 'run `npm run build` first (npm test does)').toBe(true);
    dataDir = await mkdtemp(path.join(tmpdir(), 'bd-pglite-template-'));

    const first = await openDatabase({ url: '', dataDir });
    await seed(first.db);
    const [seeded] = await first.db.select({ n: count() }).from(masterData);
    await first.close();
    const again = await openDatabase({ url: '', dataDir });
    const [reopened] = await again.db.select({ n: count() }).from(masterData);
    await again.close();

    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(seeded?.n).toBeGreaterThan(0);
    expect(reopened?.n).toBe(seeded?.n);
  });
});
