import { describe, expect, it } from 'vitest';
import { createJobQueue } from '../../api/jobs/queue';
import { silent } from '../support/login';
import { createTestDatabase } from '../support/test-db';

/**
 * A scheduled job is queued once per period whatever the number of processes (pg-boss's cron): three
 * queues on one database, as three processes, each with the schedule and a worker.
 */
describe.skipIf(!process.env.DATABASE_URL)('a scheduled job across three processes', () => {
  it('runs once a minute, not once per process', async () => {
    const database = await createTestDatabase();
    const runs: { queue: number; at: number }[] = [];
    const queues = [0, 1, 2].map((n) => {
      const queue = createJobQueue(database, {
        logger: silent,
        pollingIntervalSeconds: 0.5,
        cronCheckSeconds: 1,
      });
      queue.define({
        name: 'test.every-minute',
        cron: '* * * * *',
        retryLimit: 0,
        retryDelaySeconds: 1,
        retryBackoff: false,
        expireInSeconds: 60,
        handler: () => {
          runs.push({ queue: n, at: Date.now() });
          return Promise.resolve();
        },
      });
      return queue;
    });
    try {
      await Promise.all(queues.map((q) => q.start()));
      const until = Date.now() + 75_000;
      while (runs.length === 0 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 200));
      // The other processes look at the schedule every second: a second run this minute would show now.
      await new Promise((resolve) => setTimeout(resolve, 8_000));

      // Once per minute: when the first run came late in its minute, the wait above may see the next
      // minute's run too, which is right; two runs in one minute are not.
      const minutes = new Set(runs.map((r) => Math.floor(r.at / 60_000)));
      expect(runs.length).toBeGreaterThanOrEqual(1);
      expect(runs.length).toBe(minutes.size);
    } finally {
      await Promise.all(queues.map((q) => q.stop(1_000)));
      await database.drop();
    }
  }, 100_000);
});
