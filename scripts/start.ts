/**
 * `npm start`: builds the SPA (`npm run build`: the bundles, the prerendered pages) when dist/ lacks them,
 * then serves API + SPA on one port.
 * Env: PORT (3000), HOST (0.0.0.0), DATABASE_URL (unset: PGlite in ${DATA_DIR}/pglite), DATA_DIR (.data),
 * STATIC_DIR (dist), LOG_LEVEL (info); DEV_TOOLS=1 unless set (or NODE_ENV=production): the demo's outbox.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defaultLogger } from '../api/app';
import { ConfigError } from '../api/config';
import { exitOnSignals, serverOptionsFromEnv, startServer } from '../api/server';

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// `npm start` is the demo: the development outbox (codes) and the iAM Smart sandbox's phone are part of
// it (README, "Trying it"). Outside production, and unless DEV_TOOLS is set otherwise, they are on.
if (process.env.NODE_ENV !== 'production' && process.env.DEV_TOOLS === undefined) process.env.DEV_TOOLS = '1';

const staticDir = path.resolve(process.env.STATIC_DIR || 'dist');
if (
  !existsSync(path.join(staticDir, 'index.html')) ||
  !existsSync(path.join(staticDir, 'prerendered', 'manifest.json'))
) {
  console.log(
    `No ${path.relative(process.cwd(), staticDir) || '.'}/index.html or prerendered pages yet: building the app (npm run build) ...`,
  );
  const code = await run('npm', ['run', 'build']);
  if (code !== 0) {
    console.error(`npm run build failed (exit ${code})`);
    process.exit(code);
  }
}

const logger = defaultLogger();
try {
  const options = serverOptionsFromEnv();
  const running = await startServer({ ...options, logger });
  exitOnSignals(running, logger, options.shutdownTimeoutMs);
  console.log(`Portal running at ${running.url}`);
} catch (err) {
  if (err instanceof ConfigError) console.error(err.message);
  else logger.fatal({ err }, 'server failed to start');
  process.exit(1);
}
