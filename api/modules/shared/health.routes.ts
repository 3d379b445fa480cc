import { Router } from 'express';
import type { Logger } from 'pino';
import type { Database, DatabaseKind } from '../../../drizzle/db';
import type { DocumentStorage } from '../../adapters/storage';
import type { VirusScanner } from '../../adapters/virus-scanner';
import type { JobCounts, JobQueue } from '../../jobs/queue';
import { sendEnvelope, sendOk } from '../../http/envelope';

export type PartHealth = 'up' | 'down';

export interface HealthData {
  api: 'up';
  database: PartHealth;
  databaseKind: DatabaseKind;
  /** The document storage can be written. */
  storage: PartHealth;
  /** The job queue answers (its counts by state), or 'idle' when this process has not started it. */
  jobs: PartHealth | 'idle';
  jobCounts?: JobCounts;
  /** ClamAV's daemon answers, or 'off' (development without CLAMD_HOST). */
  scanner: PartHealth | 'off';
  /** When these parts were checked (at most `cacheMs` before the answer). */
  time: string;
}

/** GET /api/health/live: the process answers HTTP; nothing else is asked. */
export interface LivenessData {
  api: 'up';
  time: string;
}

export interface HealthParts {
  storage?: Pick<DocumentStorage, 'probe'>;
  jobs?: Pick<JobQueue, 'started' | 'counts'>;
  scanner?: Pick<VirusScanner, 'kind' | 'ping'>;
}

/** The readiness check, shared by every request of one process (docs/operations.md, "Health"). */
export interface Readiness {
  /** The parts' state: checked now, or the check of the last `cacheMs` (or the one running). */
  check(): Promise<HealthData>;
  /** How many times the parts were really checked (a flood of requests costs one a second). */
  readonly checks: number;
}

/** Each part gets this long; the whole answer stays well under a load balancer's check time-out. */
const PART_TIMEOUT_MS = 1_500;

/** How long one check's answer is reused. */
export const READINESS_CACHE_MS = 1_000;

function within<T>(promise: Promise<T>, ms = PART_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function checkParts(
  database: Pick<Database, 'kind' | 'ping'>,
  parts: HealthParts,
  logger: Pick<Logger, 'warn'>,
): Promise<HealthData> {
  const check = (what: string, run: () => Promise<unknown>): Promise<PartHealth> =>
    within(run()).then(
      () => 'up',
      (err: unknown) => {
        logger.warn({ err }, `${what} check failed`);
        return 'down';
      },
    );
  let jobCounts: JobCounts | undefined;
  const [db, storage, jobs, scanner] = await Promise.all([
    check('database', () => database.ping()),
    parts.storage?.probe
      ? check('storage', () => parts.storage?.probe?.() ?? Promise.resolve())
      : ('up' as const),
    parts.jobs?.started
      ? check('job queue', async () => {
          jobCounts = await parts.jobs?.counts();
        })
      : ('idle' as const),
    !parts.scanner || parts.scanner.kind === 'off'
      ? ('off' as const)
      : check('scanner', () => parts.scanner?.ping() ?? Promise.resolve()),
  ]);
  return {
    api: 'up',
    database: db,
    databaseKind: database.kind,
    storage,
    jobs,
    ...(jobCounts ? { jobCounts } : {}),
    scanner,
    time: new Date().toISOString(),
  };
}

/**
 * The readiness check with its one-second memory: requests that arrive while a check runs wait for that
 * check, and requests within `cacheMs` of its end get its answer. A monitor or an attacker sending a
 * thousand requests a second to /api/health costs the database one ping a second.
 */
export function createReadiness(
  database: Pick<Database, 'kind' | 'ping'>,
  parts: HealthParts,
  logger: Pick<Logger, 'warn'>,
  cacheMs = READINESS_CACHE_MS,
): Readiness {
  let last: { answer: Promise<HealthData>; settledAt: number | undefined } | undefined;
  let checks = 0;
  return {
    get checks() {
      return checks;
    },
    check() {
      const fresh = last && (last.settledAt === undefined || performance.now() - last.settledAt < cacheMs);
      if (last && fresh) return last.answer;
      checks += 1;
      const current: { answer: Promise<HealthData>; settledAt: number | undefined } = {
        answer: checkParts(database, parts, logger).finally(() => {
          current.settledAt = performance.now();
        }),
        settledAt: undefined,
      };
      last = current;
      return current.answer;
    },
  };
}

export function healthRouter(readiness: Readiness): Router {
  const router = Router();

  /**
   * GET /api/health/live — liveness: 200 { api: 'up', time } as long as the process answers HTTP. No
   * database, no disk: for a supervisor deciding whether to restart the process (a database outage is
   * not cured by restarting every API process).
   */
  router.get('/live', (req, res) => {
    const data: LivenessData = { api: 'up', time: new Date().toISOString() };
    sendOk(req, res, data, 'health.up');
  });

  /**
   * GET /api/health (also /api/health/ready) — readiness, for load balancers and monitors.
   * data { api, database, databaseKind, storage, jobs, jobCounts?, scanner, time }: each part checked at
   * once, in parallel, at most once a second per process (the answer is reused for a second). 200 when
   * the database answers (within 2 s) and the storage can be written: this process can serve. 503
   * SERVICE_UNAVAILABLE otherwise (load balancers take the process out). The queue and the scanner are
   * shared by every process, so their state is reported without failing the check: monitors alert on
   * `jobs` / `scanner` 'down' (uploads are then refused with 503 by themselves).
   */
  router.get(['/', '/ready'], async (req, res) => {
    const data = await readiness.check();
    if (data.database === 'up' && data.storage === 'up') sendOk(req, res, data, 'health.up');
    else if (data.database === 'down')
      sendEnvelope(req, res, 503, 'SERVICE_UNAVAILABLE', 'health.databaseDown', data);
    else sendEnvelope(req, res, 503, 'SERVICE_UNAVAILABLE', 'health.storageDown', data);
  });

  return router;
}
