import { Router } from 'express';
import type { Database, DatabaseKind } from '../../drizzle/db';
import { sendEnvelope, sendOk } from '../envelope';

export interface HealthData {
  api: 'up';
  database: 'up' | 'down';
  databaseKind: DatabaseKind;
  time: string;
}

export function healthRouter(database: Pick<Database, 'kind' | 'ping'>): Router {
  const router = Router();

  /**
   * GET /api/health
   * 200 when the database answers a ping within 2 s: data { api: 'up', database: 'up', databaseKind, time };
   * 503 SERVICE_UNAVAILABLE when it does not, with database 'down' (for load balancers and monitors).
   */
  router.get('/', async (req, res) => {
    const up = await database.ping().then(
      () => true,
      (err: unknown) => {
        req.log.warn({ err }, 'database ping failed');
        return false;
      },
    );
    const data: HealthData = {
      api: 'up',
      database: up ? 'up' : 'down',
      databaseKind: database.kind,
      time: new Date().toISOString(),
    };
    if (up) sendOk(req, res, data, 'health.up');
    else sendEnvelope(req, res, 503, 'SERVICE_UNAVAILABLE', 'health.databaseDown', data);
  });

  return router;
}
