import { createHmac } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../drizzle/db';
import { rateLimits } from '../../drizzle/schema';
import { ApiError } from './errors';

/**
 * Rate limits of the endpoints that cost CPU or storage (docs/decisions/011-rate-limits.md), counted in
 * Postgres (table `rate_limits`) by rate-limiter-flexible's RateLimiterDrizzle, so that every process
 * behind the load balancer counts the same requests. Keyed by the caller's address (an HMAC of it: the
 * table holds no address), before authentication: a stranger who floods a draft's URL spends only their
 * own allowance. Past a limit: 429 RATE_LIMITED with Retry-After and a message in the caller's language.
 * One-time passwords keep their own limits per application number and per contact as well
 * (api/modules/auth/otp.ts, table `rate_events`); `otpSend` here counts every code sent from one address,
 * whatever the number or the contact (docs/decisions/030-sign-in-lockouts.md).
 */
export type RateLimitName =
  | 'draftCreate'
  | 'draftSave'
  | 'caseCheck'
  | 'pdf'
  | 'upload'
  | 'signing'
  | 'submission'
  | 'download'
  | 'address'
  | 'otpSend'
  | 'verify';

export interface RateLimit {
  /** Requests allowed ... */
  points: number;
  /** ... per this many seconds (a fixed window that starts with the first request). */
  seconds: number;
}

const TEN_MINUTES = 600;

/** Per address, every ten minutes: well above what a person does, far below a looping client. */
export const DEFAULT_RATE_LIMITS: Record<RateLimitName, RateLimit> = {
  draftCreate: { points: 30, seconds: TEN_MINUTES },
  // The wizard autosaves 1.5 s after typing stops: a person makes dozens a minute at most, an office behind
  // one address several times that.
  draftSave: { points: 1200, seconds: TEN_MINUTES },
  // A self-certification's case, asked on leaving Part A and Part B: a handful per form; low, because an
  // answer tells whether a case number exists (docs/decisions/021-self-certification.md).
  caseCheck: { points: 30, seconds: TEN_MINUTES },
  pdf: { points: 30, seconds: TEN_MINUTES },
  upload: { points: 60, seconds: TEN_MINUTES },
  signing: { points: 30, seconds: TEN_MINUTES },
  submission: { points: 30, seconds: TEN_MINUTES },
  download: { points: 120, seconds: TEN_MINUTES },
  address: { points: 300, seconds: TEN_MINUTES },
  // Every route that sends a one-time code: a person sends a code and perhaps two more; an office behind
  // one address a few times that. One client had sent 70 in 2.5 s.
  otpSend: { points: 20, seconds: TEN_MINUTES },
  // The public check of an issued letter (docs/decisions/038-sealed-letters.md): a person checks a few
  // letters; low enough that references cannot be tried in bulk.
  verify: { points: 60, seconds: TEN_MINUTES },
};

/** `false` turns every limit off (the browser tests); otherwise limits replacing the defaults. */
export type RateLimitOptions = false | Partial<Record<RateLimitName, RateLimit>>;

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(
      429,
      'RATE_LIMITED',
      'limits.tooMany',
      { retryAfterSeconds },
      { params: { seconds: retryAfterSeconds }, headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  }
}

export type RateLimiters = Record<RateLimitName, RequestHandler>;

export function createRateLimiters({
  db,
  secret,
  logger,
  options = {},
}: {
  db: Db;
  /** Key of the HMAC of addresses. */
  secret: string | Buffer;
  logger: Logger;
  options?: RateLimitOptions;
}): RateLimiters {
  const pass: RequestHandler = (_req, _res, next) => next();
  const names = Object.keys(DEFAULT_RATE_LIMITS) as RateLimitName[];
  if (options === false) return Object.fromEntries(names.map((n) => [n, pass])) as RateLimiters;

  const keyOf = (address: string) => createHmac('sha256', secret).update(address).digest('base64url');
  const handler = (name: RateLimitName): RequestHandler => {
    const { points, seconds } = options[name] ?? DEFAULT_RATE_LIMITS[name];
    const limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: name,
      points,
      duration: seconds,
    });
    return (req, _res, next) => {
      limiter.consume(keyOf(req.ip ?? req.socket.remoteAddress ?? '')).then(
        () => next(),
        (rejection: unknown) => {
          if (rejection instanceof RateLimiterRes) {
            next(new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
            return;
          }
          // The count could not be kept (the database is down): let the request go; it fails on its own.
          logger.warn({ err: rejection, limit: name }, 'rate limit not counted');
          next();
        },
      );
    };
  };
  return Object.fromEntries(names.map((n) => [n, handler(n)])) as RateLimiters;
}
