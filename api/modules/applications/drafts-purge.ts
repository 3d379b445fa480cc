import type { Db } from '../../../drizzle/db';
import type { DocumentStorage } from '../../adapters/storage';
import { deleteExpiredDrafts } from './drafts.repo';

/**
 * Deletes every draft whose validity ended at or before `now` and that was never submitted, with its
 * tokens and one-time codes. Answers how many drafts went. Safe to run from several processes at once.
 * Run hourly by the job `purge.expired` (api/jobs/maintenance.ts).
 */
export async function purgeExpiredDrafts(db: Db, now: Date, storage?: DocumentStorage): Promise<number> {
  const { count, storageKeys } = await deleteExpiredDrafts(db, now);
  // The rows are gone; their files follow (a file that cannot be removed now is only wasted space).
  if (storage) await Promise.all(storageKeys.map((key) => storage.remove(key).catch(() => undefined)));
  return count;
}
