import type { Router } from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeApp, createApp } from '../../api/app';
import { API_MOUNTS, API_PATH_PATTERN } from '../../api/http/mounts';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * `npm run dev` proxies only the API's own paths to it (API_MOUNTS, docs/operations.md): a path the API
 * router mounts outside them would reach Vite instead, and the UI would read index.html as its answer.
 */

/** The path each layer of an Express 5 router was mounted at (`router` 2.3 keeps it as `rawPath`). */
type MountedLayer = { rawPath?: unknown };

let database: TestDatabase;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = createApp({ db: database, logger: pino({ level: 'silent' }), devRoutes: true });
});

afterAll(async () => {
  await closeApp(app);
  await database?.drop();
});

function apiRouterPaths(): string[] {
  const appLayers = (app.router as unknown as Router).stack as unknown as Array<
    MountedLayer & { handle: { stack?: MountedLayer[] } }
  >;
  // The API's router (the request time-out before it is mounted at /api too, without a stack).
  const api = appLayers.find((layer) => layer.rawPath === '/api' && layer.handle.stack);
  if (!api?.handle.stack) throw new Error('no router mounted at /api');
  return api.handle.stack
    .map((layer) => layer.rawPath)
    .filter((p): p is string => typeof p === 'string' && p !== '/');
}

const firstSegment = (p: string) => p.split('/')[1] ?? '';

describe('the paths the development proxy sends to the API', () => {
  it('cover every path the API router mounts, and name none it does not', () => {
    const paths = apiRouterPaths();
    expect(paths.length).toBeGreaterThan(20);

    expect([...new Set(paths.map(firstSegment))].sort()).toEqual([...API_MOUNTS].sort());
  });

  it.each([
    '/api/health',
    '/api/address?q=Nathan',
    '/api/cases/current',
    '/api/drafts/A1-2026-000001/documents',
    '/api/dev/outbox',
  ])('match %s', (p) => {
    expect(new RegExp(API_PATH_PATTERN).test(p)).toBe(true);
  });

  it.each(['/api/index.ts', '/api/cases.ts', '/api/draft-auth.ts?t=1', '/api/client.ts?import', '/api'])(
    'leave the UI module (or other path) %s to Vite',
    (p) => {
      expect(new RegExp(API_PATH_PATTERN).test(p)).toBe(false);
    },
  );
});
