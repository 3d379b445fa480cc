import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { contentSecurityPolicy } from './http/csp';
import { type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Database } from '../drizzle/db';
import { type AddressLookup, seededAddressLookup } from './adapters/address';
import { type EmailSender, emailSenderFromEnv } from './adapters/email';
import { type SmsSender, smsSenderFromEnv } from './adapters/sms';
import { type Clock, systemClock } from './clock';
import { readVariable } from './config';

import type { RateLimitOptions } from './http/rate-limit';
import { appLogger, requestForLog, safeErrorSerializer } from './logging';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { requestTimeout } from './http/request-timeout';
import { apiRouter } from './routes';
import { compressAnswers, staticSite } from './static-site';
import type { DocumentStorage } from './adapters/storage';
import { documentStorageFromEnv } from './adapters/document-storage';
import { createIamSmartSandbox, type IamSmartSigning, unconfiguredIamSmart } from './adapters/iamsmart';
import { postgresSandboxStore } from './adapters/iamsmart-store';
import {
  createPdfCheckPool,
  createMessageService,
  createReadiness,
  type Readiness,
  documentLimitsFromEnv,
  type PdfChecker,
  type PdfCheckLimits,
  type MessageService,
  type DocumentLimits,
  hkicKeys,
  departmentSeal,
} from './modules/shared';
import { draftValidityDaysFromEnv } from './modules/applications';
import type { EcertTrust } from './modules/signing';
import type { SignInLimits, StaffIdentityProvider } from './modules/auth';
import { createJobQueue, jobWorkersFromEnv, type JobQueue } from './jobs/queue';
import { messageKey } from './jobs/seal';
import { defineMaintenanceJobs } from './jobs/maintenance';
import { defineOfficerDigestJobs } from './modules/console/officer-digest';
import { installMetrics, metricsFromEnv } from './http/metrics';
import { createPortalAddress, originOfServer, type PortalAddress } from './http/portal-address';
import { type VirusScanner, virusScannerFromEnv } from './adapters/virus-scanner';

/** One-time passwords and the messages that carry them. */
export interface AuthOptions {
  /** HMAC key for codes and the keys of limits. Default: env OTP_SECRET; required in production. */
  otpSecret?: string;
  /** Minimum real duration of every send answer (no timing difference). Default 300 ms; tests use 0. */
  minSendDurationMs?: number;
  /** Default: SMTP when env SMTP_URL is set, else the outbox. */
  email?: EmailSender;
  /** Default: the HTTP gateway when env SMS_GATEWAY_URL is set, else the outbox. */
  sms?: SmsSender;
  /** The whole message service (then `email` and `sms` are not used): tests await its `settled()`. */
  messages?: MessageService;
  /** Who a staff sign-in is (default: password and TOTP on `staff_accounts`), the seam of docs/console.md. */
  staffIdentity?: (db: Database['db']) => StaffIdentityProvider;
  /** The staff sign-in limits (docs/decisions/030-sign-in-lockouts.md); tests shorten a wait. */
  staffSignInLimits?: Partial<SignInLimits>;
}

/** The durable job queue (messages, purges, reminders). */
export interface JobsOptions {
  /**
   * The queue. Default: pg-boss on `db`, started at the first job (server.ts starts it at once, so that
   * jobs a crashed process left are taken up). The app defines its jobs on it before it starts.
   */
  queue?: JobQueue;
  /** Queue the scheduled jobs (purges, sweeps, reminders) by their cron. Default true. */
  schedule?: boolean;
}

export interface AppOptions {
  /** The open database (from `openDatabase()`); migrations already applied. */
  db: Database;
  /** Request and error logs. Default: pino at LOG_LEVEL (info), silent when NODE_ENV=test. */
  logger?: Logger;
  /** The built SPA (Vite's dist/). When given, it is served with history fallback to index.html. */
  staticDir?: string;
  /**
   * Seconds a master data answer is reused before the database is asked again (per process).
   * Default: env MASTER_DATA_CACHE_SECONDS, else 30; 0 turns the cache off.
   */
  masterDataCacheSeconds?: number;
  /** What "now" is for codes, sessions and limits. Default: the system clock. */
  clock?: Clock;
  auth?: AuthOptions;
  /**
   * The development tools: /api/dev (the outbox, the iAM Smart sandbox's phone) and the /dev pages.
   * Default: only when env DEV_TOOLS is exactly '1' (and never in production); otherwise their paths are 404.
   */
  devRoutes?: boolean;
  /** Days a draft stays valid after its last save. Default: env DRAFT_VALIDITY_DAYS, else 14. */
  draftValidityDays?: number;
  /** The address search. Default: the seeded `addresses` table (api/adapters/address.ts). */
  address?: AddressLookup;
  /**
   * Uploaded documents. Default: env DOCUMENT_STORAGE (api/adapters/document-storage.ts): a local
   * directory, DOCUMENT_STORAGE_DIR, else `.data/documents`; or the S3 bucket S3_BUCKET.
   * limits from env UPLOAD_MAX_FILE_MB / UPLOAD_MAX_TOTAL_MB (10 and 50).
   */
  documents?: {
    storage?: DocumentStorage;
    limits?: DocumentLimits;
    checker?: PdfChecker;
    scanner?: VirusScanner;
  };
  /**
   * Signing. Default: the iAM Smart sandbox outside production (the real service cannot be reached from
   * here; in production, an adapter that refuses until the real client is configured) and the e-Cert
   * trust given (server.ts loads it from env ECERT_ROOTS / ECERT_CRLS; none: every e-Cert is untrusted).
   */
  signing?: { iamSmart?: IamSmartSigning; ecertTrust?: EcertTrust };
  /**
   * Rate limits of the endpoints that cost CPU or storage (api/http/rate-limit.ts), counted in
   * Postgres. Default: on, with DEFAULT_RATE_LIMITS; env RATE_LIMITS=off turns them off (tests only).
   */
  rateLimits?: RateLimitOptions;
  jobs?: JobsOptions;
  /** GET /metrics in Prometheus' format (api/http/metrics.ts). Default: env METRICS is '1'. */
  metrics?: boolean;
  /**
   * The portal's address in the links of messages (api/http/portal-address.ts). Default: env
   * PUBLIC_ORIGIN; unset, the address the app's server listens on (`app.listen`).
   */
  publicOrigin?: string;
  /**
   * An API request not answered within this many ms gets 503 with Retry-After (api/http/request-timeout.ts).
   * Default: env REQUEST_TIMEOUT_SECONDS, else 30 s.
   */
  requestTimeoutMs?: number;
}

export function defaultLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info');
  return pino({ level });
}

/** Development tools only when asked for explicitly (DEV_TOOLS=1), never in production. */
export function devToolsFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return readVariable('DEV_TOOLS', env) === '1' && env.NODE_ENV !== 'production';
}

function cacheSecondsFromEnv(): number {
  return readVariable('MASTER_DATA_CACHE_SECONDS');
}

const REQUEST_ID = /^[\w.-]{1,100}$/;

/** Shorter secrets are refused: the HMAC key must not be guessable. */
const MIN_SECRET_LENGTH = 32;

/**
 * The OTP HMAC key: the option, else env OTP_SECRET (at least 32 characters). Without either, production
 * refuses to start; development uses a random key per process and says so (codes then do not survive a
 * restart, and several processes would not accept each other's codes).
 */
export function resolveOtpSecret(
  given: string | undefined,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const secret = given ?? env.OTP_SECRET;
  if (secret) {
    if (secret.length < MIN_SECRET_LENGTH)
      throw new Error(`OTP_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
    return secret;
  }
  if (env.NODE_ENV === 'production') throw new Error('OTP_SECRET must be set in production');
  logger.warn('OTP_SECRET is not set: using a random key for this process only (development)');
  return randomBytes(32).toString('base64url');
}

/** The app's job queue (to start it, stop it, or ask it for its health). */
export function jobsOf(app: Express): JobQueue {
  return app.locals.jobs as JobQueue;
}

/** The app's readiness check (GET /api/health): how many checks it really made. */
export function healthOf(app: Express): Readiness {
  return app.locals.health as Readiness;
}

/** The portal's address of the app (the links of its messages point there). */
export function portalOf(app: Express): PortalAddress {
  return app.locals.portal as PortalAddress;
}

/** Stops what the app started besides requests (the PDF check's worker threads). */
export function closeApp(app: Express): Promise<void> {
  const close = app.locals.close as (() => Promise<void>) | undefined;
  return close ? close() : Promise.resolve();
}

/** The PDF check's limits from env PDF_CHECK_* (api/config.ts, docs/operations.md). */
export function pdfCheckLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<PdfCheckLimits> {
  const threads = readVariable('PDF_CHECK_THREADS', env);
  return {
    heapMb: readVariable('PDF_CHECK_HEAP_MB', env),
    totalMb: readVariable('PDF_CHECK_INFLATE_MB', env),
    timeoutSeconds: readVariable('PDF_CHECK_TIMEOUT_SECONDS', env),
    maxPages: readVariable('PDF_CHECK_MAX_PAGES', env),
    ...(threads > 0 ? { threads } : {}),
  };
}

export function createApp({
  db,
  logger = defaultLogger(),
  staticDir,
  masterDataCacheSeconds = cacheSecondsFromEnv(),
  clock = systemClock,
  auth = {},
  devRoutes = devToolsFromEnv(),
  draftValidityDays = draftValidityDaysFromEnv(),
  address = seededAddressLookup(db.db),
  documents = {},
  signing = {},
  rateLimits = readVariable('RATE_LIMITS') === 'off' ? false : {},
  jobs: jobOptions = {},
  metrics = metricsFromEnv(),
  publicOrigin = readVariable('PUBLIC_ORIGIN'),
  requestTimeoutMs = readVariable('REQUEST_TIMEOUT_SECONDS') * 1000,
}: AppOptions): Express {
  logger = appLogger(logger);
  const otpSecret = resolveOtpSecret(auth.otpSecret, logger);
  // The keys of HKIC numbers at rest, now rather than at the first save (docs/decisions/035-hkic-at-rest.md).
  hkicKeys(logger);
  // The seal of issued letters, opened now so a bad SEAL_P12 stops the start (docs/operations.md).
  departmentSeal(logger);
  const jobs =
    jobOptions.queue ??
    createJobQueue(db, {
      logger,
      workers: jobWorkersFromEnv(),
      maintenanceIntervalSeconds: readVariable('JOB_MAINTENANCE_SECONDS'),
    });
  const messages =
    auth.messages ??
    createMessageService({
      db: db.db,
      jobs,
      key: messageKey(otpSecret),
      clock,
      logger,
      email: auth.email ?? emailSenderFromEnv(),
      sms: auth.sms ?? smsSenderFromEnv(),
      retry: {
        attemptSeconds: readVariable('MESSAGE_ATTEMPT_SECONDS'),
        delaySeconds: readVariable('MESSAGE_RETRY_SECONDS'),
      },
    });
  const storage = documents.storage ?? documentStorageFromEnv('.data/documents');
  // ClamAV's daemon from CLAMD_HOST / CLAMD_PORT / CLAMD_SOCKET; production refuses to start without it.
  const scanner = documents.scanner ?? virusScannerFromEnv(logger);
  defineMaintenanceJobs(jobs, {
    db: db.db,
    clock,
    logger,
    storage,
    messages,
    schedule: jobOptions.schedule ?? true,
  });
  defineOfficerDigestJobs({
    db: db.db,
    clock,
    logger,
    messages,
    jobs,
    minutes: readVariable('OFFICER_DIGEST_MINUTES'),
    schedule: jobOptions.schedule ?? true,
  });
  const app = express();
  app.disable('x-powered-by');
  // Behind a load balancer: which hops' X-Forwarded-For to believe (the rate limits key on req.ip).
  const trustProxy = readVariable('TRUST_PROXY');
  if (trustProxy) app.set('trust proxy', /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy);
  // The PDF check's worker threads: made here unless given, and stopped by closeApp().
  const pdfChecker = documents.checker ?? createPdfCheckPool(pdfCheckLimitsFromEnv());
  app.locals.close = () => (documents.checker ? Promise.resolve() : pdfChecker.close());
  app.locals.jobs = jobs;
  app.locals.scanner = scanner;
  // GET /api/health's check, at most once a second per process (docs/operations.md, "Health").
  const health = createReadiness(db, { storage, jobs, scanner }, logger);
  app.locals.health = health;
  // The links of messages point to PUBLIC_ORIGIN, else to the address this app's server listens on.
  const portal = createPortalAddress(publicOrigin);
  app.locals.portal = portal;
  const listen = app.listen.bind(app) as (...args: unknown[]) => Server;
  app.listen = ((...args: unknown[]) => {
    const server = listen(...args);
    server.once('listening', () => {
      const at = originOfServer(server);
      if (at) portal.listening(at);
    });
    return server;
  }) as Express['listen'];

  app.use(helmet({ contentSecurityPolicy }));
  if (metrics) installMetrics(app, jobs);
  app.use(compressAnswers());
  app.use(
    pinoHttp({
      logger,
      autoLogging: logger.level !== 'silent',
      genReqId(req, res) {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customLogLevel(_req, res, err) {
        if (err || res.statusCode >= 500) return 'error';
        return res.statusCode >= 400 ? 'warn' : 'info';
      },
      // Only what operations need; headers (Authorization, cookies) never reach the logs.
      // No query strings (signed links), no SQL parameters in errors (api/logging.ts).
      serializers: {
        req: requestForLog,
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        err: safeErrorSerializer,
      },
    }),
  );

  // Below the browser's 60 s: a request stuck on the database answers 503, never hangs.
  app.use('/api', requestTimeout(requestTimeoutMs));
  app.use(
    '/api',
    apiRouter(db, {
      masterData: { cacheTtlMs: masterDataCacheSeconds * 1000 },
      clock,
      logger,
      messages,
      otp: { secret: otpSecret, minSendDurationMs: auth.minSendDurationMs },
      staff: {
        provider: auth.staffIdentity?.(db.db),
        limits: auth.staffSignInLimits,
      },
      devRoutes,
      draftValidityDays,
      address,
      documents: {
        storage,
        limits: documents.limits ?? documentLimitsFromEnv(),
        checker: pdfChecker,
        scanner,
      },
      signing: {
        // The sandbox outside production only: production without the real client refuses iAM Smart plainly.
        iamSmart:
          signing.iamSmart ??
          (process.env.NODE_ENV === 'production'
            ? unconfiguredIamSmart()
            : createIamSmartSandbox({
                now: () => clock.now().getTime(),
                // In Postgres: a signing started on one process is polled on another.
                store: postgresSandboxStore(db.db),
              })),
        ecertTrust: signing.ecertTrust ?? { roots: [] },
      },
      jobs,
      health,
      jobSchedule: jobOptions.schedule ?? true,
      // The download links are signed with their own key derived from the OTP key.
      linkSecret: createHmac('sha256', otpSecret).update('download-links').digest(),
      rateLimits,
      portal,
    }),
  );

  // The /dev pages are the SPA's, but without the tools they show nothing: 404 like their API.
  if (!devRoutes) app.use('/dev', notFoundHandler);

  if (staticDir) app.use(staticSite(staticDir));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
