/**
 * The server the browser tests run against: the built SPA over the real API, on a fresh database that
 * is dropped at the end (real Postgres when DATABASE_URL is set, in-memory PGlite otherwise).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startServer } from '../../api/server';
import { createTestDatabaseUrl } from '../support/fresh-postgres';

const staticDir = fileURLToPath(new URL('../../dist', import.meta.url));
if (!existsSync(`${staticDir}/index.html`)) {
  console.error('dist/ is missing: run `npm run build` first (npm test does).');
  process.exit(1);
}

const fresh = process.env.DATABASE_URL
  ? await createTestDatabaseUrl(process.env.DATABASE_URL, 'bd_e2e')
  : null;
const server = await startServer({
  port: Number(process.env.E2E_PORT ?? 3100),
  host: '127.0.0.1',
  databaseUrl: fresh?.url,
  staticDir,
  logger: pino({ level: 'warn' }),
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await fresh?.drop();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
