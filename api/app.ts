import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { type Logger, pino } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Database } from '../drizzle/db';
import { type AddressLookup, seededAddressLookup } from './adapters/address';
import { type EmailSender, emailSenderFromEnv } from './adapters/email';
import { type SmsSender, smsSenderFromEnv } from './adapters/sms';
import { type Clock, systemClock } from './clock';
import { errorHandler, notFoundHandler } from './middleware/errors';
import { apiRouter } from './routes';
import { compressAnswers, staticSite } from './static-site';
import { createLocalStorage, type DocumentStorage } from './adapters/storage';
import { createIamSmartSandbox, type IamSmartSigning, unconfiguredIamSmart } from './adapters/iamsmart';
import { documentLimitsFromEnv, type DocumentLimits } from './services/documents';
import type { EcertTrust } from './services/ecert';
import { draftValidityDaysFromEnv } from './services/drafts';
import { type MessageService, createMessageService } from './services/messages';

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
  /** Mount /api/dev (the outbox). Default: NODE_ENV is not 'production'; in production the paths are 404. */
  devRoutes?: boolean;
  /** Days a draft stays valid after its last save. Default: env DRAFT_VALIDITY_DAYS, else 14. */
  draftValidityDays?: number;
  /** The address search. Default: the seeded `addresses` table (api/adapters/address.ts). */
  address?: AddressLookup;
  /**
   * Uploaded documents. Default: a local directory, env DOCUMENT_STORAGE_DIR, else `.data/documents`;
   * limits from env UPLOAD_MAX_FILE_MB / UPLOAD_MAX_TOTAL_MB (10 and 50).
   */
  documents?: { storage?: DocumentStorage; limits?: DocumentLimits };
  /**
   * Signing. Default: the iAM Smart sandbox outside production (the real service cannot be reached from
   * here; in production, an adapter that refuses until the real client is configured) and the e-Cert
   * trust given (server.ts loads it from env ECERT_ROOTS / ECERT_CRLS; none: every e-Cert is untrusted).
   */
  signing?: { iamSmart?: IamSmartSigning; ecertTrust?: EcertTrust };
}

/**
 * The style react-aria injects once for pressable elements (`touch-action: pan-x pan-y pinch-zoom`,
 * react-aria's usePress). Allowed by its hash rather than by 'unsafe-inline'; the browser tests record
 * every CSP violation, so a react-aria upgrade that changes the text fails them and this hash is renewed.
 */
export const REACT_ARIA_PRESS_STYLE_HASH = "'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='";

/**
 * The style attributes react-aria writes into server-rendered HTML (its visually hidden inputs and live
 * region), which the prerendered wizard and Find my case pages carry until they hydrate. Allowed by their
 * hashes only ('unsafe-hashes' covers attributes, never a <style> or script). scripts/prerender.ts refuses
 * any other style attribute, and the browser tests record every CSP violation.
 */
export const PRERENDERED_STYLE_ATTRIBUTES = [
  'border:0;clip:rect(0 0 0 0);clip-path:inset(50%);height:1px;margin:-1px;overflow:hidden;padding:0;position:absolute;width:1px;white-space:nowrap',
  'border:0;clip:rect(0 0 0 0);clip-path:inset(50%);height:1px;margin:-1px;overflow:hidden;padding:0;position:fixed;width:1px;white-space:nowrap;top:0;left:0',
];
const styleAttributeHashes = PRERENDERED_STYLE_ATTRIBUTES.map(
  (css) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`,
);

/** No inline script or style anywhere: the SPA is built to files. */
export const contentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", REACT_ARIA_PRESS_STYLE_HASH],
    styleSrcAttr: ["'unsafe-hashes'", ...styleAttributeHashes],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
  },
};

export function defaultLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info');
  return pino({ level });
}

function cacheSecondsFromEnv(): number {
  const seconds = Number(process.env.MASTER_DATA_CACHE_SECONDS ?? 30);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : 30;
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

/** Resolves when the messages the app is still sending in the background have gone (or failed). */
export function backgroundSettled(app: Express): Promise<void> {
  const settled = app.locals.backgroundSettled as (() => Promise<void>) | undefined;
  return settled ? settled() : Promise.resolve();
}

export function createApp({
  db,
  logger = defaultLogger(),
  staticDir,
  masterDataCacheSeconds = cacheSecondsFromEnv(),
  clock = systemClock,
  auth = {},
  devRoutes = process.env.NODE_ENV !== 'production',
  draftValidityDays = draftValidityDaysFromEnv(),
  address = seededAddressLookup(db.db),
  documents = {},
  signing = {},
}: AppOptions): Express {
  const otpSecret = resolveOtpSecret(auth.otpSecret, logger);
  const messages =
    auth.messages ??
    createMessageService({
      db: db.db,
      clock,
      logger,
      email: auth.email ?? emailSenderFromEnv(),
      sms: auth.sms ?? smsSenderFromEnv(),
    });
  const app = express();
  app.disable('x-powered-by');
  app.locals.backgroundSettled = () => messages.settled();

  app.use(helmet({ contentSecurityPolicy }));
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
      serializers: {
        req: (req: IncomingMessage & { id?: unknown; remoteAddress?: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
          remoteAddress: req.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  app.use(
    '/api',
    apiRouter(db, {
      masterData: { cacheTtlMs: masterDataCacheSeconds * 1000 },
      clock,
      logger,
      messages,
      otp: { secret: otpSecret, minSendDurationMs: auth.minSendDurationMs },
      devRoutes,
      draftValidityDays,
      address,
      documents: {
        storage:
          documents.storage ??
          createLocalStorage(process.env.DOCUMENT_STORAGE_DIR || path.resolve('.data/documents')),
        limits: documents.limits ?? documentLimitsFromEnv(),
      },
      signing: {
        // The sandbox outside production only: production without the real client refuses iAM Smart plainly.
        iamSmart:
          signing.iamSmart ??
          (process.env.NODE_ENV === 'production'
            ? unconfiguredIamSmart()
            : createIamSmartSandbox({ now: () => clock.now().getTime() })),
        ecertTrust: signing.ecertTrust ?? { roots: [] },
      },
      // The download links are signed with their own key derived from the OTP key.
      linkSecret: createHmac('sha256', otpSecret).update('download-links').digest(),
    }),
  );

  if (staticDir) app.use(staticSite(staticDir));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
