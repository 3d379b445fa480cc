import { Router } from 'express';
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
  time: string;
}

export interface HealthParts {
  storage?: Pick<DocumentStorage, 'probe'>;
  jobs?: Pick<JobQueue, 'started' | 'counts'>;
  scanner?: Pick<VirusScanner, 'kind' | 'ping'>;
}

/** Each part gets this long; the whole answer stays well under a load balancer's check time-out. */
const PART_TIMEOUT_MS = 1_500;

function within<T>(promise: Promise<T>, ms = PART_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function healthRouter(database: Pick<Database, 'kind' | 'ping'>, parts: HealthParts = {}): Router {
  const router = Router();

  /**
   * GET /api/health
   * data { api, database, databaseKind, storage, jobs, jobCounts?, scanner, time }: each part checked at
   * once, in parallel. 200 when the database answers (within 2 s) and the storage can be written: this
   * process can serve. 503 SERVICE_UNAVAILABLE otherwise (load balancers take the process out). The queue
   * and the scanner are shared by every process, so their state is reported without failing the check:
   * monitors alert on `jobs` / `scanner` 'down' (uploads are then refused with 503 by themselves).
   */
  router.get('/', async (req, res) => {
    const check = (what: string, run: () => Promise<unknown>): Promise<PartHealth> =>
      within(run()).then(
        () => 'up',
        (err: unknown) => {
          req.log.warn({ err }, `${what} check failed`);
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
    const data: HealthData = {
      api: 'up',
      database: db,
      databaseKind: database.kind,
      storage,
      jobs,
      ...(jobCounts ? { jobCounts } : {}),
      scanner,
      time: new Date().toISOString(),
    };
    if (db === 'up' && storage === 'up') sendOk(req, res, data, 'health.up');
    else if (db === 'down') sendEnvelope(req, res, 503, 'SERVICE_UNAVAILABLE', 'health.databaseDown', data);
    else sendEnvelope(req, res, 503, 'SERVICE_UNAVAILABLE', 'health.storageDown', data);
  });

  return router;
}
