import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { masterData } from '../../../drizzle/schema';
import type { MasterDataEntry, MasterDataQuery } from '../../../machines/rules/master-data';

/**
 * The values of one (type, code), ordered by sortOrder (then id, for a stable order).
 * An unknown pair is not an error: it answers an empty list, and the caller uses its default.
 */
export async function findMasterData(db: Db, query: MasterDataQuery): Promise<MasterDataEntry[]> {
  return db
    .select({
      dataValue: masterData.dataValue,
      type: masterData.type,
      code: masterData.code,
      description: masterData.description,
    })
    .from(masterData)
    .where(and(eq(masterData.type, query.type), eq(masterData.code, query.code)))
    .orderBy(asc(masterData.sortOrder), asc(masterData.id));
}

export interface MasterDataServiceOptions {
  /** How long an answer is reused before the database is asked again. 0 turns the cache off. Default 30 s. */
  cacheTtlMs?: number;
  /** At most this many (type, code) pairs are kept; the oldest goes first. Default 1000. */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface MasterDataService {
  find(query: MasterDataQuery): Promise<readonly MasterDataEntry[]>;
  /** Forgets every cached answer (after an administrator changes master data in this process). */
  clearCache(): void;
}

/**
 * Master data is reference data that changes rarely and is read on every page load (the idle time-out),
 * so each process keeps a short-lived read-through copy. Postgres stays the only truth: a change made
 * anywhere is seen by every process within `cacheTtlMs`. Concurrent misses for one pair share a query.
 */
export function createMasterDataService(db: Db, options: MasterDataServiceOptions = {}): MasterDataService {
  const ttlMs = options.cacheTtlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 1000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { expiresAt: number; entries: Promise<readonly MasterDataEntry[]> }>();

  return {
    find(query) {
      if (ttlMs <= 0) return findMasterData(db, query);
      const key = `${query.type}\u0000${query.code}`;
      const hit = cache.get(key);
      if (hit && hit.expiresAt > now()) return hit.entries;
      if (hit) cache.delete(key);

      const entries = findMasterData(db, query).then((rows) => Object.freeze(rows));
      entries.catch(() => {
        if (cache.get(key)?.entries === entries) cache.delete(key);
      });
      if (cache.size >= maxEntries) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
      cache.set(key, { expiresAt: now() + ttlMs, entries });
      return entries;
    },
    clearCache() {
      cache.clear();
    },
  };
}
