import type { IncomingMessage } from 'node:http';
import { type Logger, stdSerializers } from 'pino';

/**
 * What the logs may hold (docs/operations.md, "Logs"). Personal data (HKIC, email, mobile, names) and
 * secrets (tokens, codes, the signatures of download links) never reach them:
 * - errors are serialised by {@link safeErrorSerializer}: the SQL text stays, its parameters go (Drizzle
 *   writes them into the message: `Failed query: ...\nparams: ...`; Postgres's `detail` quotes values);
 * - request lines carry the path only, without the query string (a signed link's `signature`);
 * - pino's `redact` removes the fields named in {@link REDACT_PATHS} wherever a log call passes them.
 */

/** Fields removed from every log line by pino's `redact` (one level deep, and as the whole value). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.query',
  '*.authorization',
  '*.token',
  '*.otp',
  '*.signature',
  '*.answers',
  '*.hkic',
  '*.applicantHkic',
  '*.email',
  '*.applicantEmail',
  '*.mobile',
  '*.applicantMobile',
  '*.to',
  '*.applicantNameEn',
  '*.applicantNameZh',
  'err.params',
  'err.parameters',
  'err.detail',
  'err.cause.params',
  'err.cause.parameters',
  'err.cause.detail',
];

/** Keys of an error (or its causes) that carry values of a query. */
const VALUE_KEYS = new Set(['params', 'parameters', 'detail', 'where', 'values']);

/** `Failed query: select ...\nparams: a@b.hk,A1234563` → `Failed query: select ...` */
function withoutParams(text: string): string {
  return text.replace(/\nparams: [^\n]*/g, '\nparams: [redacted]');
}

function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return withoutParams(value);
  if (depth > 5 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (VALUE_KEYS.has(key)) continue;
    out[key] = scrub(v, depth + 1);
  }
  return out;
}

/** pino's error serialiser, then without any query parameter (in the message, the stack or a cause). */
export function safeErrorSerializer(err: unknown): unknown {
  if (!(err instanceof Error)) return scrub(err);
  return scrub(stdSerializers.err(err));
}

/** The path of a request without its query string (signed links carry their signature there). */
export function pathForLog(url: string | undefined): string {
  const raw = url ?? '';
  const q = raw.indexOf('?');
  return q === -1 ? raw : raw.slice(0, q);
}

/**
 * The request as logged: id, method, path (no query string, no headers) and the caller's address: Express's
 * `req.ip` (the address the trusted load balancer saw, with TRUST_PROXY; docs/operations.md), else the peer's.
 */
export function requestForLog(
  req: IncomingMessage & { id?: unknown; remoteAddress?: string; raw?: { ip?: string } },
) {
  return {
    id: req.id,
    method: req.method,
    url: pathForLog(req.url),
    remoteAddress: req.raw?.ip ?? req.remoteAddress,
  };
}

/**
 * The app's logger: the given one (the server's, or a test's) with the redaction and the safe error
 * serialiser applied, whatever options it was made with.
 */
export function appLogger(base: Logger): Logger {
  return base.child({}, { redact: { paths: REDACT_PATHS }, serializers: { err: safeErrorSerializer } });
}
