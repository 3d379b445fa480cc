import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export interface FreshDatabase {
  /** Connection string of the new, empty database. */
  url: string;
  name: string;
  /** Drops the database (and any connection left to it). */
  drop(): Promise<void>;
}

const STALE_MS = 2 * 60 * 60 * 1000;

/**
 * Creates a fresh, empty database on the server of `baseUrl`, named `<prefix>_<time>_<random>`, so that
 * a test run never sees another's leftovers. Databases of the same prefix older than two hours (a run
 * that was killed) are dropped on the way.
 */
export async function createTestDatabaseUrl(baseUrl: string, prefix: string): Promise<FreshDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    const old = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`${prefix}\\_%`}`;
    for (const { datname } of old) {
      const stamp = Number(datname.slice(prefix.length + 1).split('_')[0]);
      if (Number.isFinite(stamp) && Date.now() - stamp > STALE_MS) {
        await admin.unsafe(`drop database if exists "${datname}" with (force)`);
      }
    }
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const a = postgres(baseUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}
