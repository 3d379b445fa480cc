import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import postgres from 'postgres';
import type { Logger } from 'pino';
import type { Database } from '../../drizzle/db';

/**
 * Durable jobs on the portal's own Postgres, through pg-boss (docs/decisions/013-job-queue.md). Every
 * email and SMS, the purges, the sweeps, the reminders and the CRL refresh are jobs: a job survives a
 * crash of the process that queued it, is taken by one worker at a time across every process
 * (`SELECT ... FOR UPDATE SKIP LOCKED`), and is retried with backoff when it fails. A scheduled job is
 * queued once a period across all processes (pg-boss's cron, one row per minute slot).
 */

/** A job's handler. Throwing fails this attempt (retried while retries remain). */
export type JobHandler<T> = (data: T, job: { id: string; retryCount: number }) => Promise<void>;

export interface JobDefinition<T> {
  name: string;
  handler: JobHandler<T>;
  /** Attempts after the first. */
  retryLimit: number;
  /** Seconds before the first retry; with backoff, doubled each time (with jitter). */
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /** An attempt that has not finished after this long (its process died) is tried again. */
  expireInSeconds: number;
  /** Cron (UTC) when the job runs by itself, e.g. '17 * * * *'. */
  cron?: string;
}

export interface JobCounts {
  created: number;
  retry: number;
  active: number;
  completed: number;
  failed: number;
}

export interface FailedJob {
  id: string;
  name: string;
  retryCount: number;
  error: string;
  createdOn: string;
  completedOn: string | null;
}

export interface JobQueue {
  /** Adds a kind of job; call before `start()` (or before the first `send`, which starts the queue). */
  define<T extends object>(definition: JobDefinition<T>): void;
  /**
   * Opens the queue (creating pg-boss's schema when missing), creates the defined queues, starts their
   * workers (unless `workers: false`) and registers the schedules. Idempotent.
   */
  start(): Promise<void>;
  /**
   * Queues a job; answers its id. Starts the queue when needed. With `id` (a UUID), a job of that id
   * is queued once: a second send answers null.
   */
  send<T extends object>(name: string, data: T, options?: { id?: string }): Promise<string | null>;
  /** Wakes this process's worker for `name` now rather than at its next poll. */
  nudge(name: string): void;
  /** The state of one job (undefined once deleted). */
  stateOf(name: string, id: string): Promise<string | undefined>;
  /** Jobs by state over every defined queue (health, metrics). */
  counts(): Promise<JobCounts>;
  /** The jobs that failed for good, newest first (GET /api/dev/jobs, and the admin query in docs/operations.md). */
  failed(limit: number): Promise<FailedJob[]>;
  /** Runs `name` once now in this process (tests, the CLI), outside the queue. */
  runNow(name: string, data?: object): Promise<void>;
  /** Lets running jobs finish (up to `timeoutMs`), then closes the queue's connections. */
  stop(timeoutMs?: number): Promise<void>;
  readonly started: boolean;
  /** Called after each attempt this process's workers make (metrics). */
  onOutcome(listener: (name: string, outcome: 'completed' | 'failed') => void): void;
}

export interface JobQueueOptions {
  logger: Logger;
  /** Run workers in this process. Default true (env JOB_WORKERS=0 makes a process that only queues). */
  workers?: boolean;
  /** Seconds between a worker's polls. Default 2. */
  pollingIntervalSeconds?: number;
  /** Run pg-boss's maintenance (expiry, archive) and schedules in this process. Default true. */
  supervise?: boolean;
  /** Seconds between maintenance runs (expired attempts go back to the queue). Default 60. */
  maintenanceIntervalSeconds?: number;
  /** Seconds between looks at the cron schedules (pg-boss's default: 30 and 5). Tests use 1. */
  cronCheckSeconds?: number;
}

/** pg-boss over the embedded PGlite: its `Db` interface is one `executeSql(text, values)`. */
function pgliteDb(client: PGlite): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return client.query(text, values);
      // pg-boss's schema plans are several statements at once, which only the simple protocol takes.
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
  };
}

/** A read of pg-boss's own tables through its connection (the documented admin queries). */
async function query<T>(b: PgBoss, text: string, values: unknown[]): Promise<T[]> {
  const db = (b as unknown as { getDb(): PgBoss.Db }).getDb();
  const result: unknown = await db.executeSql(text, values);
  return (result as { rows: T[] }).rows;
}

/** The advisory lock the queues are created under (any fixed bigint apart from the migrations'). */
const QUEUE_LOCK_KEY = 7_310_013_002;

function queueOptions(d: JobDefinition<object>) {
  return {
    retryLimit: d.retryLimit,
    retryDelay: d.retryDelaySeconds,
    retryBackoff: d.retryBackoff,
    expireInSeconds: d.expireInSeconds,
    // Completed and failed jobs are kept a week (then pg-boss deletes them).
    retentionDays: 7,
  };
}

export function jobWorkersFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.JOB_WORKERS !== '0';
}

export function createJobQueue(database: Database, options: JobQueueOptions): JobQueue {
  const { logger } = options;
  const definitions = new Map<string, JobDefinition<object>>();
  const workerIds = new Map<string, string>();
  const listeners: ((name: string, outcome: 'completed' | 'failed') => void)[] = [];
  const tell = (name: string, outcome: 'completed' | 'failed') => listeners.forEach((l) => l(name, outcome));
  let boss: PgBoss | undefined;
  let starting: Promise<PgBoss> | undefined;
  let stopped = false;

  function connect(): PgBoss {
    const connection = database.connection;
    if (!connection) throw new Error('The database gives no connection for the job queue');
    const common = {
      supervise: options.supervise ?? true,
      schedule: options.supervise ?? true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
      // Finished jobs stay in pgboss.job 4 days (failed ones 7) before pg-boss archives them, and 7 more
      // in pgboss.archive. A job id is unique only while its job is in pgboss.job: the reminder's
      // one-per-validity id (api/jobs/maintenance.ts) needs its job there for the 3 days it is asked for.
      archiveCompletedAfterSeconds: 4 * 24 * 3600,
      archiveFailedAfterSeconds: 7 * 24 * 3600,
      deleteAfterDays: 7,
      ...(options.cronCheckSeconds
        ? {
            cronMonitorIntervalSeconds: options.cronCheckSeconds,
            cronWorkerIntervalSeconds: options.cronCheckSeconds,
          }
        : {}),
    };
    return connection.kind === 'postgres'
      ? new PgBoss({ connectionString: connection.url, max: 4, ...common })
      : new PgBoss({ db: pgliteDb(connection.client), ...common });
  }

  async function open(): Promise<PgBoss> {
    const b = connect();
    b.on('error', (err) => logger.error({ err }, 'job queue error'));
    await b.start();
    // Creating a queue makes a table partition: two processes doing it at once deadlock, so the
    // queues are created under an advisory lock (the second process finds them made).
    await underLock(async () => {
      for (const d of definitions.values()) {
        if (!(await b.getQueue(d.name))) await b.createQueue(d.name, { name: d.name, ...queueOptions(d) });
        if (d.cron) await b.schedule(d.name, d.cron, {}, { tz: 'UTC' });
      }
    });
    for (const d of definitions.values()) await startWorker(b, d);
    boss = b;
    return b;
  }

  async function underLock(run: () => Promise<void>): Promise<void> {
    const connection = database.connection;
    if (connection?.kind !== 'postgres') return run();
    const client = postgres(connection.url, { max: 1, onnotice: () => {} });
    try {
      await client`select pg_advisory_lock(${QUEUE_LOCK_KEY})`;
      await run();
    } finally {
      await client.end({ timeout: 5 });
    }
  }

  async function startWorker(b: PgBoss, d: JobDefinition<object>): Promise<void> {
    if (options.workers ?? true) {
      const id = await b.work<object>(
        d.name,
        { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1, includeMetadata: true },
        async ([job]) => {
          if (!job) return;
          try {
            await d.handler(job.data, { id: job.id, retryCount: job.retryCount });
            tell(d.name, 'completed');
          } catch (err) {
            tell(d.name, 'failed');
            logger.warn({ err, job: job.name, id: job.id, retryCount: job.retryCount }, 'job attempt failed');
            throw err;
          }
        },
      );
      workerIds.set(d.name, id);
    }
  }

  function ready(): Promise<PgBoss> {
    if (stopped) return Promise.reject(new Error('The job queue is stopped'));
    starting ??= open().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  }

  const STATES = ['created', 'retry', 'active', 'completed', 'failed'] as const;

  return {
    get started() {
      return boss !== undefined;
    },
    onOutcome(listener) {
      listeners.push(listener);
    },
    define<T extends object>(definition: JobDefinition<T>) {
      if (starting) throw new Error(`Job ${definition.name} defined after the queue started`);
      definitions.set(definition.name, definition as unknown as JobDefinition<object>);
    },
    async start() {
      await ready();
    },
    async send(name, data, sendOptions = {}) {
      const b = await ready();
      const d = definitions.get(name);
      // The definition's retries on every job (a queue keeps the options it was first created with).
      const id = await b.send(name, data, { ...(d ? queueOptions(d) : {}), ...sendOptions });
      if (!id && !sendOptions.id) throw new Error(`Job ${name} was not queued`);
      return id;
    },
    nudge(name) {
      const id = workerIds.get(name);
      if (boss && id) boss.notifyWorker(id);
    },
    async stateOf(name, id) {
      const b = await ready();
      const job = await b.getJobById(name, id);
      return job?.state;
    },
    async counts() {
      const b = await ready();
      const names = [...definitions.keys()];
      const counts: JobCounts = { created: 0, retry: 0, active: 0, completed: 0, failed: 0 };
      if (names.length === 0) return counts;
      const rows = await query<{ state: string; n: number }>(
        b,
        `select state, count(*)::int as n from pgboss.job where name = any($1::text[]) group by state`,
        [names],
      );
      for (const row of rows) {
        const state = STATES.find((s) => s === row.state);
        if (state) counts[state] = Number(row.n);
      }
      return counts;
    },
    async failed(limit) {
      const b = await ready();
      const rows = await query<{
        id: string;
        name: string;
        retry_count: number;
        output: { message?: string } | null;
        created_on: Date;
        completed_on: Date | null;
      }>(
        b,
        `select id, name, retry_count, output, created_on, completed_on from pgboss.job
          where state = 'failed' and name = any($1::text[])
         union all
         select id, name, retry_count, output, created_on, completed_on from pgboss.archive
          where state = 'failed' and name = any($1::text[])
         order by created_on desc limit $2`,
        [[...definitions.keys()], limit],
      );
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        retryCount: r.retry_count,
        error: r.output?.message ?? '',
        createdOn: new Date(r.created_on).toISOString(),
        completedOn: r.completed_on ? new Date(r.completed_on).toISOString() : null,
      }));
    },
    async runNow(name, data = {}) {
      const d = definitions.get(name);
      if (!d) throw new Error(`No job ${name}`);
      await d.handler(data, { id: 'now', retryCount: 0 });
    },
    async stop(timeoutMs = 10_000) {
      stopped = true;
      const b = boss ?? (starting ? await starting.catch(() => undefined) : undefined);
      boss = undefined;
      if (b) await b.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
  };
}
