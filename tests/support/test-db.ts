import { type Database, openDatabase } from '../../drizzle/db';
import { seed } from '../../drizzle/seed';
import { createTestDatabaseUrl, type FreshDatabase } from './fresh-postgres';

export interface TestDatabase extends Database {
  /** `bd_test_<time>_<random>` on real Postgres; 'memory' for PGlite. */
  readonly name: string;
  /** The connection string on real Postgres; undefined for PGlite. */
  readonly url?: string;
  /** Closes the database and, on real Postgres, drops it. Safe after `close()`. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file:
 * - DATABASE_URL set: a new database `bd_test_…` on that server, opened through openDatabase({ url });
 * - otherwise: in-memory PGlite.
 * Pass `{ seed: true }` to load the seed data.
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({ url: '' });
    if (options.seed) await seed(database.db);
    return { ...database, name: 'memory', drop: () => database.close() };
  }

  const fresh: FreshDatabase = await createTestDatabaseUrl(adminUrl, 'bd_test');
  let database: Database | undefined;
  const dropDatabase = async () => {
    await database?.close();
    await fresh.drop();
  };
  try {
    database = await openDatabase({ url: fresh.url });
    if (options.seed) await seed(database.db);
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  let dropped: Promise<void> | undefined;
  return {
    ...database,
    name: fresh.name,
    url: fresh.url,
    drop() {
      dropped ??= dropDatabase();
      return dropped;
    },
  };
}
