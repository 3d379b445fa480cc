import type { Express, NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobQueue } from '../jobs/queue';

/**
 * Prometheus metrics (prom-client), off unless env METRICS=1: GET /metrics in the text format, on the
 * same port (keep it off the public internet: the load balancer does not route it, docs/operations.md).
 * Each process has its own counters; Prometheus scrapes each process and sums.
 */
export function metricsFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.METRICS === '1';
}

/** The path as asked (routers change `req.path` on the way). */
const pathOf = (req: Request) => req.originalUrl.split('?')[0] ?? '';

/**
 * The path with its variable parts as `:id` (any segment with a digit, or longer than 24 characters:
 * application numbers, tokens, transaction ids), so that each draft does not make a series of its own
 * and no identifier reaches the metrics.
 */
function routeOf(req: Request): string {
  const path = pathOf(req);
  if (!path.startsWith('/api/') && path !== '/metrics') return 'static';
  return path
    .split('/')
    .map((segment) => (/\d/.test(segment) || segment.length > 24 ? ':id' : segment))
    .join('/');
}

export function installMetrics(app: Express, jobs: JobQueue): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'portal_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const uploads = new Counter({
    name: 'portal_uploads_total',
    help: 'Document uploads answered, by outcome (accepted, refused) and status code',
    labelNames: ['outcome', 'status'] as const,
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'portal_jobs_total',
    help: 'Job attempts this process ran, by job and outcome (completed, failed: retried or failed for good)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'portal_jobs',
    help: 'Jobs in the queue by state (every process sees the same queue)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      if (!jobs.started) return;
      const counts = await jobs.counts();
      for (const [state, n] of Object.entries(counts) as [string, number][]) this.set({ state }, n);
    },
  });
  jobs.onOutcome((job, outcome) => jobRuns.inc({ job, outcome }));

  app.use((req: Request, res: Response, next: NextFunction) => {
    res.on('finish', () => {
      const status = String(res.statusCode);
      requests.inc({ method: req.method, route: routeOf(req), status });
      if (req.method === 'POST' && /^\/api\/drafts\/[^/]+\/documents$/.test(pathOf(req)))
        uploads.inc({ outcome: res.statusCode < 300 ? 'accepted' : 'refused', status });
    });
    next();
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(await registry.metrics());
  });
}
