import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app';
import { createLocalStorage } from '../../api/adapters/storage';
import { clamdScanner } from '../../api/adapters/virus-scanner';
import { createJobQueue } from '../../api/jobs/queue';
import type { HealthData } from '../../api/modules/shared/health.routes';
import { getJson, listen } from '../support/http';
import { landscapeA4 } from '../support/pdf-corpus';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { type DraftHarness, startDraftHarness } from './drafts-harness';

const silent = pino({ level: 'silent' });
let database: TestDatabase;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'bd-health-'));
});
afterAll(async () => {
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /api/health reports each part', () => {
  it('reports the database, storage and job queue up, and a scanner that does not answer as down, still 200', async () => {
    const jobs = createJobQueue(database, { logger: silent, workers: false });
    const server = await listen(
      createApp({
        db: database,
        logger: silent,
        jobs: { queue: jobs, schedule: false },
        documents: {
          storage: createLocalStorage(path.join(dir, 'docs')),
          scanner: clamdScanner({ host: '127.0.0.1', port: 1, timeoutMs: 500 }),
        },
      }),
    );
    try {
      await jobs.start();
      const res = await getJson<HealthData>(`${server.baseUrl}/api/health`);

      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ database: 'up', storage: 'up', jobs: 'up', scanner: 'down' });
      expect(res.body.data.jobCounts).toMatchObject({ created: expect.any(Number) as number, failed: 0 });
    } finally {
      await server.close();
      await jobs.stop(1_000);
    }
  });

  it('answers 503 when the storage cannot be written, in the caller’s language; the scanner off and the queue idle', async () => {
    const blocked = path.join(dir, 'a-file');
    await writeFile(blocked, 'not a directory');
    const server = await listen(
      createApp({
        db: database,
        logger: silent,
        documents: { storage: createLocalStorage(path.join(blocked, 'docs')) },
      }),
    );
    try {
      const res = await getJson<HealthData>(`${server.baseUrl}/api/health`, { 'accept-language': 'zh-HK' });

      expect(res.status).toBe(503);
      expect(res.body.meta).toEqual({ code: 'SERVICE_UNAVAILABLE', message: '無法寫入文件儲存區。' });
      expect(res.body.data).toMatchObject({ database: 'up', storage: 'down', jobs: 'idle', scanner: 'off' });
    } finally {
      await server.close();
    }
  });
});

describe('GET /metrics', () => {
  it('is not there unless METRICS=1', async () => {
    const server = await listen(createApp({ db: database, logger: silent, metrics: false }));
    try {
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  describe('when on', () => {
    let h: DraftHarness;
    beforeAll(async () => {
      h = await startDraftHarness({
        login: { app: { metrics: true, documents: { storage: createLocalStorage(path.join(dir, 'm')) } } },
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('counts requests by route pattern, uploads by outcome and job attempts, in Prometheus’ format', async () => {
      const draft = await h.createDraft();
      const form = new FormData();
      form.append('documentType', 'layoutPlans');
      form.append('file', new Blob([(await landscapeA4()).slice()], { type: 'application/pdf' }), 'plan.pdf');
      const upload = (body: FormData) =>
        fetch(`${h.baseUrl}/api/drafts/${draft.applicationNo}/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${draft.token}` },
          body,
        });
      expect((await upload(form)).status).toBe(201);
      const bad = new FormData();
      bad.append('documentType', 'layoutPlans');
      bad.append('file', new Blob(['not a pdf'], { type: 'application/pdf' }), 'bad.pdf');
      expect((await upload(bad)).status).toBe(422);
      const app = await h.addApplication();
      await h.codeByEmail(app.applicationNo, app.email);

      const response = await fetch(`${h.baseUrl}/metrics`);
      const text = await response.text();

      expect(response.headers.get('content-type')).toContain('text/plain');
      expect(text).toContain('portal_http_requests_total{method="POST",route="/api/drafts",status="201"} 1');
      expect(text).toContain(
        'portal_http_requests_total{method="POST",route="/api/drafts/:id/documents",status="422"} 1',
      );
      expect(text).toContain('portal_uploads_total{outcome="accepted",status="201"} 1');
      expect(text).toContain('portal_uploads_total{outcome="refused",status="422"} 1');
      expect(text).toMatch(/portal_jobs_total\{job="message\.send",outcome="completed"\} [1-9]/);
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).not.toContain(draft.applicationNo);
    });
  });
});
