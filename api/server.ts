import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { type Database, openDatabase } from '../drizzle/db';
import { seedDemo } from '../drizzle/demo';
import { seed } from '../drizzle/seed';
import { closeApp, createApp, defaultLogger, jobsOf, portalOf } from './app';
import { originOfAddress } from './http/portal-address';
import { appLogger } from './logging';
import { DEMO_STAFF, seedStaff } from './modules/auth';
import { indexPendingCases } from './modules/cases';
import { ConfigError, loadConfig } from './config';
import { documentStorageFromEnv } from './adapters/document-storage';
import { crlPathsFromEnv, startCrlRefresh, loadEcertTrust, type EcertTrust } from './modules/signing';

/**
 * The e-Cert trust from env ECERT_ROOTS and ECERT_CRLS (comma-separated paths of PEM or DER files: the
 * Hongkong Post Root CA 3 certificate and the CRLs it publishes). Without them, no e-Cert signature is
 * trusted (every one is refused as untrusted), which is right for a portal that was not configured.
 */
export async function ecertTrustFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<EcertTrust> {
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
  const rootPaths = list(env.ECERT_ROOTS);
  if (rootPaths.length === 0) return { roots: [] };
  return loadEcertTrust({ rootPaths, crlPaths: list(env.ECERT_CRLS) });
}

export interface ServerOptions {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 0.0.0.0. */
  host?: string;
  /** Postgres URL; unset means embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  /** PGlite data directory; unset (with no databaseUrl) means in memory. */
  dataDir?: string;
  /** Postgres's statement_timeout in ms (drizzle/db.ts; default 20 s, 0 none). */
  statementTimeoutMs?: number;
  /** The built SPA to serve; unset serves the API only. */
  staticDir?: string;
  logger?: Logger;
  /**
   * How long close() waits for in-flight requests (uploads included) before cutting their connections.
   * Default 25 s (env SHUTDOWN_TIMEOUT_SECONDS through serverOptionsFromEnv).
   */
  shutdownTimeoutMs?: number;
  /**
   * Load the demo applications (drizzle/demo.ts). Default: NODE_ENV is not 'production' and env
   * DEMO_DATA is not '0'.
   */
  demoData?: boolean;
}

export interface RunningServer {
  /** Base URL, e.g. http://localhost:3000 (localhost when bound to all interfaces). */
  url: string;
  server: Server;
  database: Database;
  /** Stops accepting, lets in-flight requests finish (up to shutdownTimeoutMs), then closes the database. */
  close(): Promise<void>;
}

/** How long SIGTERM lets requests in flight finish by default (a slow upload on a mobile line). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;

/** What stopping takes after the requests: the job queue's running jobs, the database (the force exit's margin). */
const STOP_MARGIN_MS = 5_000;
const JOBS_STOP_MS = 3_000;

export function demoDataFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV !== 'production' && env.DEMO_DATA !== '0';
}

/** Opens the database (migrations run), seeds it (and the demo data outside production), and listens. */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  // Redacted like the app's (api/logging.ts): the purge and shutdown logs never hold SQL parameters either.
  const logger = appLogger(opts.logger ?? defaultLogger());
  const host = opts.host ?? '0.0.0.0';
  const database = await openDatabase(
    opts.databaseUrl
      ? { url: opts.databaseUrl, statementTimeoutMs: opts.statementTimeoutMs }
      : { url: '', dataDir: opts.dataDir },
  );
  try {
    await seed(database.db);
    if (opts.demoData ?? demoDataFromEnv()) {
      await seedDemo(database.db);
      await seedStaff(database.db, DEMO_STAFF);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  // Uploaded documents and signed application forms: DOCUMENT_STORAGE (local: DOCUMENT_STORAGE_DIR, else
  // `documents` in DATA_DIR; s3: the bucket).
  const storage = documentStorageFromEnv(path.join(process.env.DATA_DIR || '.data', 'documents'));
  const ecertTrust = await ecertTrustFromEnv();
  const app = createApp({
    db: database,
    logger,
    staticDir: opts.staticDir,
    documents: { storage },
    signing: { ecertTrust },
  });

  // The job queue starts before the port opens: jobs that a stopped or crashed process left queued
  // (messages, purges) are taken up now, by whichever process is free.
  const jobs = jobsOf(app);
  const server = await jobs
    .start()
    .then(
      () =>
        new Promise<Server>((resolve, reject) => {
          const s = app.listen(opts.port ?? 3000, host, (error?: Error) =>
            error ? reject(error) : resolve(s),
          );
        }),
    )
    .catch(async (error: unknown) => {
      await jobs.stop(1_000).catch(() => undefined);
      await database.close();
      throw error;
    });
  // Slightly above common load-balancer idle time-outs, so the balancer closes idle connections first.
  server.keepAliveTimeout = 65_000;

  // The e-Cert CRLs are re-read from their files every 15 minutes (each process keeps its own copy).
  const crlRefresh = startCrlRefresh(ecertTrust, crlPathsFromEnv(), logger);

  // The console's search text of the cases marked to be indexed (those from before migration 0022, the
  // seeds), filled in the background; a search fills what is left first (docs/decisions/034-console-search.md).
  const stopIndexing = new AbortController();
  const indexing = indexPendingCases(database.db, stopIndexing.signal).then(
    (indexed) => {
      if (indexed > 0) logger.info({ indexed }, 'cases indexed for the console search');
    },
    (error: unknown) => {
      if (!stopIndexing.signal.aborted)
        logger.warn({ err: error }, 'indexing for the console search stopped');
    },
  );

  const { port } = server.address() as AddressInfo;
  const url = originOfAddress({ address: host, port });
  // Without PUBLIC_ORIGIN, the links of messages point here (api/http/portal-address.ts).
  portalOf(app).listening(url);
  logger.info({ url, database: database.kind, staticDir: opts.staticDir ?? null }, 'server listening');

  let closing: Promise<void> | undefined;
  // During shutdown, a request that still arrives on a kept-alive connection is answered with
  // Connection: close, and connections are closed as soon as they fall idle.
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.setHeader('Connection', 'close');
  });
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const reaper = setInterval(() => server.closeIdleConnections(), 50);
      reaper.unref();
      const timeoutMs = opts.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
        timer.unref();
      });
      if ((await Promise.race([stopped, timedOut])) === 'timeout') {
        logger.warn({ timeoutMs }, 'in-flight requests did not finish; closing their connections');
        server.closeAllConnections();
        await stopped;
      }
      clearTimeout(timer);
      clearInterval(reaper);
      crlRefresh.stop();
      stopIndexing.abort();
      await indexing;
      // Jobs running now get a few seconds; one cut off is taken up again by another process later.
      await jobs.stop(JOBS_STOP_MS);
      await closeApp(app);
      await database.close();
      logger.info('server stopped');
    })();
    return closing;
  };

  return { url, server, database, close };
}

/**
 * The options `tsx api/server.ts` and `npm start` use: PORT, HOST, DATABASE_URL, DATA_DIR, STATIC_DIR.
 * The whole environment is checked first (api/config.ts): a bad value, or production without real email,
 * SMS or the shared secrets, throws a ConfigError naming each problem, and the server does not start.
 */
export function serverOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const config = loadConfig(env);
  const staticDir = path.resolve(config.STATIC_DIR);
  return {
    port: config.PORT,
    host: config.HOST,
    databaseUrl: config.DATABASE_URL,
    dataDir: path.join(config.DATA_DIR, 'pglite'),
    statementTimeoutMs: config.STATEMENT_TIMEOUT_SECONDS * 1000,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    staticDir: existsSync(staticDir) ? staticDir : undefined,
  };
}

/**
 * On SIGTERM or SIGINT: stop accepting, finish in-flight requests, close the database, exit 0.
 * If that takes longer than `forceAfterMs` (the requests' limit and a margin to stop the rest), exit 1.
 * A second signal exits at once.
 */
export function exitOnSignals(
  running: Pick<RunningServer, 'close'>,
  logger: Logger,
  shutdownTimeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS,
): void {
  const forceAfterMs = shutdownTimeoutMs + STOP_MARGIN_MS;
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal; exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error({ forceAfterMs }, 'shutdown took too long; forcing exit');
      process.exit(1);
    }, forceAfterMs).unref();
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

function isMain(): boolean {
  const entry = process.argv[1];
  return entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href;
}

if (isMain()) {
  const logger = defaultLogger();
  try {
    const options = serverOptionsFromEnv();
    const running = await startServer({ ...options, logger });
    exitOnSignals(running, logger, options.shutdownTimeoutMs);
  } catch (err) {
    if (err instanceof ConfigError) console.error(err.message);
    else logger.fatal({ err }, 'server failed to start');
    process.exit(1);
  }
}
