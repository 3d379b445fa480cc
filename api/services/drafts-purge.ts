import type { Logger } from 'pino';
import type { Db } from '../../drizzle/db';
import { type Clock, HOUR_MS } from '../clock';
import type { DocumentStorage } from '../adapters/storage';
import { deleteExpiredDrafts } from './drafts.repo';

/**
 * Deletes every draft whose validity ended at or before `now` and that was never submitted, with its
 * tokens and one-time codes. Answers how many drafts went. Safe to run from several processes at once.
 */
export async function purgeExpiredDrafts(db: Db, now: Date, storage?: DocumentStorage): Promise<number> {
  const { count, storageKeys } = await deleteExpiredDrafts(db, now);
  // The rows are gone; their files follow (a file that cannot be removed now is only wasted space).
  if (storage) await Promise.all(storageKeys.map((key) => storage.remove(key).catch(() => undefined)));
  return count;
}

export interface DraftPurgeOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Default: every hour. */
  intervalMs?: number;
  /** Where the drafts' files are, to remove them too. */
  storage?: DocumentStorage;
}

export interface DraftPurge {
  /** One purge now (also what the timer runs); never rejects, failures are logged. */
  runOnce(): Promise<number>;
  /** Stops the timer and waits for a purge that is running. */
  stop(): Promise<void>;
}

/**
 * Purges expired drafts now and then every `intervalMs`. The timer is unref'd, so it never keeps the
 * process alive; the server stops it on shutdown before closing the database.
 */
export function startDraftPurge({
  db,
  clock,
  logger,
  intervalMs = HOUR_MS,
  storage,
}: DraftPurgeOptions): DraftPurge {
  let running: Promise<number> = Promise.resolve(0);
  let stopped = false;

  const runOnce = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    running = running.then(async () => {
      try {
        const purged = await purgeExpiredDrafts(db, clock.now(), storage);
        if (purged > 0) logger.info({ purged }, 'expired drafts purged');
        return purged;
      } catch (err) {
        logger.error({ err }, 'purging expired drafts failed');
        return 0;
      }
    });
    return running;
  };

  const timer = setInterval(() => void runOnce(), intervalMs);
  timer.unref();
  void runOnce();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
