import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { type ErrorCode, sendEnvelope } from './envelope';
import { ApiError, NotFoundError } from './errors';
import { requestLanguage, translate } from './i18n';
import { timedOut, UNAVAILABLE_RETRY_AFTER_SECONDS } from './request-timeout';
import { formatDateParams } from '../../machines/rules/dates';

/** A field error in a 400 answer: `path` is the dotted field path ('' for the whole body). */
export interface FieldError {
  path: string;
  message: string;
}

/** Errors thrown by body-parser (express.json) carry a `type` and an HTTP `status`. */
interface BodyParserError {
  type: string;
  status: number;
  expose?: boolean;
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { type?: unknown }).type === 'string' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}

/** Postgres: 22021 invalid byte sequence (a NUL in text), 22P05 untranslatable character (in jsonb). */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

function isUnstorableTextError(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 3; depth += 1) {
    if (typeof e.code === 'string' && UNSTORABLE_TEXT_CODES.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * The database did not answer in time or cannot be reached: Postgres cancelled a statement
 * (57014 statement_timeout, 55P03 lock_timeout, 25P03 idle in transaction), is shutting down or full
 * (57P0x, 53300), the connection failed (class 08, postgres.js's CONNECT_TIMEOUT / CONNECTION_*, the
 * socket's errors), or the embedded PGlite was closed.
 */
const UNAVAILABLE_STATES = new Set(['57014', '55P03', '25P03', '57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_CODES = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
]);

/** The first `code` among an error and its causes that `matches`. */
function codeIn(err: unknown, matches: (code: string, message: string) => boolean): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown; message?: unknown } | null, depth = 0;
    e && depth < 4;
    depth += 1
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (matches(code, typeof e.message === 'string' ? e.message : '')) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return codeIn(
    err,
    (code, message) =>
      UNAVAILABLE_STATES.has(code) ||
      UNAVAILABLE_CODES.has(code) ||
      /^08[0-9A-Z]{3}$/.test(code) ||
      message === 'PGlite is closed',
  );
}

/** The disk (or the quota) of the document storage is full. */
export function isStorageFull(err: unknown): boolean {
  return codeIn(err, (code) => code === 'ENOSPC' || code === 'EDQUOT');
}

/** Errors from Express's own parts (http-errors) with a 4xx status: the request, not the server, is wrong. */
function isClientHttpError(err: unknown): err is { status: number } {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function fieldErrors(req: Request, error: ZodError): FieldError[] {
  const lang = requestLanguage(req);
  return error.issues.map((issue) => {
    const own = 'params' in issue && issue.params ? (issue.params as Record<string, string | number>) : {};
    const params: Record<string, string | number> = { ...own };
    if ('maximum' in issue && (typeof issue.maximum === 'number' || typeof issue.maximum === 'bigint')) {
      params.max = Number(issue.maximum);
    }
    if ('minimum' in issue && (typeof issue.minimum === 'number' || typeof issue.minimum === 'bigint')) {
      params.min = Number(issue.minimum);
    }
    // A date in a message is written as a person reads it, in the request's language (machines/rules/dates.ts).
    return {
      path: issue.path.map(String).join('.'),
      message: translate(lang, issue.message, formatDateParams(params, lang)),
    };
  });
}

/** Codes a schema's issue may give its 400 (spec §8) instead of BAD_REQUEST, in `params.code`. */
const ISSUE_CODES = new Set<ErrorCode>(['HKICNO']);

/** The envelope code of a 400 for a schema's issues: the first issue's own code, else BAD_REQUEST. */
function issueCode(error: ZodError): ErrorCode {
  const first = error.issues[0];
  const code =
    first && 'params' in first ? (first.params as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' && ISSUE_CODES.has(code as ErrorCode) ? (code as ErrorCode) : 'BAD_REQUEST';
}

/** Unknown routes under /api (and, without a static site, everywhere): 404 envelope. */
export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new NotFoundError());
};

/**
 * The one place errors become answers:
 * - ApiError -> its status, code, message (with its params) and headers (such as Retry-After)
 * - ZodError -> 400 BAD_REQUEST (or the first issue's own code: HKICNO), meta.message = the first field's
 *   message, data.errors = every field
 * - malformed JSON (entity.parse.failed) -> 400; body over the limit (entity.too.large) -> 413;
 *   other client errors from body-parser -> their 4xx status
 * - the database timed out or is unreachable -> 503 SERVICE_UNAVAILABLE with Retry-After; the document
 *   storage's disk full (ENOSPC) -> 507 INSUFFICIENT_STORAGE
 * - anything else -> 500 INTERNAL with a generic message; logged with its stack, which never leaves the server
 */
export const errorHandler: ErrorRequestHandler = (
  err: unknown,
  req: Request,
  res: Response,
  next: NextFunction,
) => {
  if (res.headersSent) {
    // Answered 503 by its time-out already: the handler's late outcome has nowhere to go.
    if (timedOut(res)) {
      req.log.info({ err }, 'outcome after the request timed out');
      return;
    }
    next(err);
    return;
  }
  // A refused request whose body has not been read (a 30 MB upload without a valid token): answer and
  // close the connection, rather than letting Node read the rest to keep the connection alive.
  if (!req.complete) res.set('Connection', 'close');
  if (err instanceof ApiError) {
    if (err.extra.headers) res.set(err.extra.headers);
    const data = err.extra.dataIn ? err.extra.dataIn(requestLanguage(req)) : err.data;
    sendEnvelope(req, res, err.status, err.code, err.messageKey, data, err.extra.params);
    return;
  }
  if (err instanceof ZodError) {
    const errors = fieldErrors(req, err);
    const message = errors[0]?.message ?? translate(requestLanguage(req), 'validation.failed');
    res.status(400).json({ meta: { code: issueCode(err), message }, data: { errors } });
    return;
  }
  // A path whose percent-encoding does not decode (`/api/drafts/%ZZ`): Express's router and the static
  // files answer a URIError with status 400. It is the caller's mistake: no log, no stack.
  if (err instanceof URIError) {
    sendEnvelope(req, res, 400, 'BAD_REQUEST', 'request.badPath', null);
    return;
  }
  // Text the database cannot store (NUL, a broken character) that a schema let through: still the
  // request's fault. The error is not logged: its parameters are the caller's data.
  if (isUnstorableTextError(err)) {
    sendEnvelope(req, res, 400, 'BAD_REQUEST', 'request.badText', null);
    return;
  }
  if (isDatabaseUnavailable(err)) {
    req.log.warn({ err }, 'database unavailable');
    res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    sendEnvelope(req, res, 503, 'SERVICE_UNAVAILABLE', 'status.databaseBusy', null);
    return;
  }
  if (isStorageFull(err)) {
    // The disk is full: nothing was kept (a write is whole or absent), and operations must act.
    req.log.error({ err }, 'document storage full');
    sendEnvelope(req, res, 507, 'INSUFFICIENT_STORAGE', 'status.insufficientStorage', null);
    return;
  }
  if (isBodyParserError(err)) {
    if (err.type === 'entity.parse.failed') {
      sendEnvelope(req, res, 400, 'BAD_REQUEST', 'request.invalidJson', null);
      return;
    }
    if (err.type === 'entity.too.large') {
      sendEnvelope(req, res, 413, 'PAYLOAD_TOO_LARGE', 'status.payloadTooLarge', null);
      return;
    }
    if (err.status === 415) {
      sendEnvelope(req, res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'status.unsupportedMediaType', null);
      return;
    }
    if (err.status >= 400 && err.status < 500) {
      sendEnvelope(req, res, err.status, 'BAD_REQUEST', 'status.badRequest', null);
      return;
    }
  }
  if (isClientHttpError(err)) {
    sendEnvelope(req, res, err.status, 'BAD_REQUEST', 'status.badRequest', null);
    return;
  }
  req.log.error({ err }, 'unhandled error');
  sendEnvelope(req, res, 500, 'INTERNAL', 'status.internal', null);
};
