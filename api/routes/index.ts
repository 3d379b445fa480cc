import express, { Router } from 'express';
import type { Database } from '../../drizzle/db';
import { notFoundHandler } from '../middleware/errors';
import { type MasterDataServiceOptions, createMasterDataService } from '../services/master-data';
import { applicationRouter } from './application';
import { healthRouter } from './health';

export interface ApiOptions {
  masterData?: MasterDataServiceOptions;
}

/** Everything under /api. Answers are never cached by HTTP caches; bodies are JSON up to 100 kB. */
export function apiRouter(database: Database, options: ApiOptions = {}): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  router.use(express.json({ limit: '100kb' }));
  router.use('/application', applicationRouter(createMasterDataService(database.db, options.masterData)));
  router.use('/health', healthRouter(database));
  // Unknown path or method under /api: 404 envelope, never the SPA's index.html.
  router.use(notFoundHandler);
  return router;
}
