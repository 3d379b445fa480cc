import { z } from 'zod';
import { MAX_DRAFT_VALIDITY_DAYS } from '../machines/rules/drafts';
import { type HkicKeyRing, parseHkicKeys } from './modules/shared/hkic-crypto';

/**
 * The server's configuration: every environment variable of the README's table, what it may be, its
 * default, and the rules of production. `loadConfig` runs when the server starts (api/server.ts) and
 * refuses to start with one line per bad value; the helpers that read one variable (`readVariable`)
 * use the same schema, so a value means the same everywhere. Decisions: docs/operations.md.
 */

const MIN_SECRET_LENGTH = 32;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, z.string().optional());

function wholeNumber(min: number, max: number, fallback: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+$/, { error: `must be a whole number from ${min} to ${max}` })
      .transform(Number)
      .refine((n) => n >= min && n <= max, { error: `must be a whole number from ${min} to ${max}` })
      .optional()
      .transform((n) => n ?? fallback),
  );
}

function positiveNumber(fallback: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, { error: 'must be a positive number' })
      .transform(Number)
      .refine((n) => n > 0, { error: 'must be a positive number' })
      .optional()
      .transform((n) => n ?? fallback),
  );
}

function url(protocols: readonly string[]) {
  return z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(
        (v) => {
          try {
            return protocols.includes(new URL(v).protocol);
          } catch {
            return false;
          }
        },
        { error: `must be a URL (${protocols.join(' or ')})` },
      )
      .optional(),
  );
}

/** An origin as people type it: http or https, a host, maybe a port, and nothing after (a `/` at most). */
function isOrigin(v: string): boolean {
  try {
    const u = new URL(v);
    return (
      (u.protocol === 'http:' || u.protocol === 'https:') &&
      u.host !== '' &&
      u.username === '' &&
      u.password === '' &&
      u.pathname === '/' &&
      u.search === '' &&
      u.hash === '' &&
      !/[?#]/.test(v)
    );
  } catch {
    return false;
  }
}

const flag = (values: readonly [string, ...string[]], fallback: string) =>
  z
    .preprocess(blankToUndefined, z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional())
    .transform((v) => v ?? fallback);

export const configSchema = z.object({
  PORT: wholeNumber(0, 65535, 3000),
  HOST: optionalText.transform((v) => v ?? '0.0.0.0'),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATA_DIR: optionalText.transform((v) => v ?? '.data'),
  STATIC_DIR: optionalText.transform((v) => v ?? 'dist'),
  NODE_ENV: optionalText,
  OTP_SECRET: z.preprocess(
    blankToUndefined,
    z
      .string()
      .min(MIN_SECRET_LENGTH, { error: `must be at least ${MIN_SECRET_LENGTH} characters` })
      .optional(),
  ),
  SMTP_URL: url(['smtp:', 'smtps:']),
  MAIL_FROM: optionalText.transform((v) => v ?? 'Buildings Department <no-reply@bd.example.hk>'),
  SMS_GATEWAY_URL: url(['http:', 'https:']),
  SMS_GATEWAY_TOKEN: optionalText,
  DEMO_DATA: flag(['0', '1'], '1'),
  DEV_TOOLS: flag(['0', '1'], '0'),
  DRAFT_VALIDITY_DAYS: wholeNumber(1, MAX_DRAFT_VALIDITY_DAYS, 14),
  MASTER_DATA_CACHE_SECONDS: wholeNumber(0, 86_400, 30),
  /** Where documents are kept: `local` (DOCUMENT_STORAGE_DIR) or `s3` (the S3_ variables). */
  DOCUMENT_STORAGE: flag(['local', 's3'], 'local'),
  DOCUMENT_STORAGE_DIR: optionalText,
  /** The object store's address; unset: AWS's own for S3_REGION. */
  S3_ENDPOINT: url(['http:', 'https:']),
  S3_BUCKET: optionalText,
  S3_REGION: optionalText.transform((v) => v ?? 'us-east-1'),
  /** Both or neither; neither: the SDK's own chain (an instance or task role). */
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** `1`: http://host/bucket/key (MinIO and most self-hosted stores). */
  S3_FORCE_PATH_STYLE: flag(['0', '1'], '0'),
  /** Server-side encryption asked of the store with every write; `aws:kms` may name its key. */
  S3_SSE: z.preprocess(
    blankToUndefined,
    z.enum(['AES256', 'aws:kms'], { error: 'must be one of AES256, aws:kms' }).optional(),
  ),
  S3_SSE_KMS_KEY_ID: optionalText,
  UPLOAD_MAX_FILE_MB: positiveNumber(10),
  UPLOAD_MAX_TOTAL_MB: positiveNumber(50),
  ECERT_ROOTS: optionalText,
  ECERT_CRLS: optionalText,
  LOG_LEVEL: flag(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  TRUST_PROXY: optionalText,
  RATE_LIMITS: flag(['on', 'off'], 'on'),
  PDF_CHECK_THREADS: wholeNumber(1, 64, 0),
  PDF_CHECK_HEAP_MB: wholeNumber(32, 8192, 256),
  PDF_CHECK_INFLATE_MB: wholeNumber(1, 8192, 256),
  PDF_CHECK_TIMEOUT_SECONDS: positiveNumber(20),
  PDF_CHECK_MAX_PAGES: wholeNumber(1, 100_000, 500),
  CLAMD_HOST: optionalText,
  CLAMD_PORT: wholeNumber(1, 65535, 3310),
  CLAMD_SOCKET: optionalText,
  JOB_WORKERS: wholeNumber(0, 64, 1),
  /** Seconds between pg-boss's maintenance runs, which put attempts past their time back in the queue. */
  JOB_MAINTENANCE_SECONDS: wholeNumber(1, 3600, 60),
  /** Seconds a message's attempt may take before it goes back to the queue (its process died). */
  MESSAGE_ATTEMPT_SECONDS: wholeNumber(2, 3600, 120),
  /** Seconds before a message's first retry, doubled each time. */
  MESSAGE_RETRY_SECONDS: wholeNumber(1, 3600, 30),
  /** Minutes at least between two inbox digest emails to one officer (docs/decisions/039-officer-inbox.md). */
  OFFICER_DIGEST_MINUTES: wholeNumber(1, 1440, 60),
  METRICS: flag(['0', '1'], '0'),
  /**
   * The portal's address as people open it (`https://portal.bd.gov.hk`): every link in a message points
   * here (api/http/portal-address.ts). Required in production; unset in development and tests, links
   * point to the address the server listens on.
   */
  PUBLIC_ORIGIN: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(isOrigin, { error: "must be the portal's address: http(s)://host[:port], no path or query" })
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
  ),
  PDF_CJK_FONT: optionalText,
  /** The longest an API request may take before it is answered 503 (uploads: from the end of their body). */
  REQUEST_TIMEOUT_SECONDS: wholeNumber(1, 3600, 30),
  /** Postgres's statement_timeout (lock_timeout half of it); 0 turns them off (drizzle/db.ts). */
  STATEMENT_TIMEOUT_SECONDS: wholeNumber(0, 3600, 20),
  /** How long SIGTERM waits for requests in flight (uploads included) before cutting them. */
  SHUTDOWN_TIMEOUT_SECONDS: wholeNumber(1, 3600, 25),
  /**
   * The keys HKIC numbers are sealed with at rest, `k2:BASE64,k1:BASE64` (32 bytes each): the first seals,
   * all open (docs/decisions/035-hkic-at-rest.md). Required in production; unset in development and tests,
   * a public throw-away key (api/modules/shared/hkic-crypto.ts).
   */
  /**
   * The department's seal on issued letters: a PKCS#12 file's path and its password
   * (docs/decisions/038-sealed-letters.md). Required in production; unset in development and tests, a
   * throw-away certificate made at start (api/modules/shared/pdf/seal.ts).
   */
  SEAL_P12: optionalText,
  SEAL_P12_PASSWORD: optionalText,
  HKIC_KEYS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((v, ctx): HkicKeyRing | typeof z.NEVER => {
        try {
          return parseHkicKeys(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : 'is not valid' });
          return z.NEVER;
        }
      })
      .optional(),
  ),
});

export type Config = z.output<typeof configSchema>;
export type ConfigVariable = keyof Config;

/** Every variable the server reads (the README's configuration table lists exactly these). */
export const CONFIG_VARIABLES = Object.keys(configSchema.shape) as ConfigVariable[];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Secrets are never echoed in an error. */
const SECRET_VARIABLES = new Set<string>([
  'OTP_SECRET',
  'SMS_GATEWAY_TOKEN',
  'DATABASE_URL',
  'SMTP_URL',
  'HKIC_KEYS',
  'SEAL_P12_PASSWORD',
  'S3_SECRET_ACCESS_KEY',
]);

function problemsOf(error: z.ZodError, env: NodeJS.ProcessEnv): string[] {
  return error.issues.map((issue) => {
    const name = String(issue.path[0] ?? '');
    const given = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(env[name])})`;
    return `${name} ${issue.message}${given}`;
  });
}

/** What production must have: real email and SMS (never the outbox), the shared secrets, no dev tools. */
function productionProblems(config: Config): string[] {
  if (config.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!config.OTP_SECRET) problems.push('OTP_SECRET must be set in production (the key of codes and links)');
  if (!config.HKIC_KEYS)
    problems.push('HKIC_KEYS must be set in production (the keys HKIC numbers are sealed with at rest)');
  if (!config.SEAL_P12)
    problems.push("SEAL_P12 must be set in production (the department's seal on issued letters)");
  if (!config.SMTP_URL) problems.push('SMTP_URL must be set in production (email would go to the outbox)');
  if (!config.SMS_GATEWAY_URL)
    problems.push('SMS_GATEWAY_URL must be set in production (SMS would go to the outbox)');
  if (config.SMS_GATEWAY_URL && !config.SMS_GATEWAY_TOKEN)
    problems.push('SMS_GATEWAY_TOKEN must be set in production with SMS_GATEWAY_URL');
  if (config.DEV_TOOLS === '1')
    problems.push('DEV_TOOLS=1 is not allowed in production (the outbox shows every code)');
  if (!config.PUBLIC_ORIGIN)
    problems.push(
      "PUBLIC_ORIGIN must be set in production (the portal's address as people open it, such as https://portal.bd.gov.hk: the links in invitations and other messages point there)",
    );
  if (config.RATE_LIMITS === 'off') problems.push('RATE_LIMITS=off is not allowed in production');
  if (!config.CLAMD_HOST && !config.CLAMD_SOCKET)
    problems.push('CLAMD_HOST or CLAMD_SOCKET must be set in production (uploads are scanned for viruses)');
  return problems;
}

type StorageConfig = Pick<
  Config,
  | 'DOCUMENT_STORAGE'
  | 'S3_BUCKET'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_SSE'
  | 'S3_SSE_KMS_KEY_ID'
>;

/** The document storage's variables that only make sense together (docs/operations.md, "Several machines"). */
export function storageProblems(config: StorageConfig): string[] {
  const problems: string[] = [];
  if (config.DOCUMENT_STORAGE === 's3' && !config.S3_BUCKET)
    problems.push('S3_BUCKET must be set with DOCUMENT_STORAGE=s3 (the bucket the documents are kept in)');
  if (!config.S3_ACCESS_KEY_ID !== !config.S3_SECRET_ACCESS_KEY)
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for a role)');
  if (config.S3_SSE_KMS_KEY_ID && config.S3_SSE !== 'aws:kms')
    problems.push('S3_SSE_KMS_KEY_ID needs S3_SSE=aws:kms');
  return problems;
}

/** Parses the whole environment; throws a ConfigError with one line per bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error, env));
  const problems = [...storageProblems(parsed.data), ...productionProblems(parsed.data)];
  if (problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
}

/** One variable, by the same rule as `loadConfig` (for the helpers that read one). */
export function readVariable<K extends ConfigVariable>(
  name: K,
  env: NodeJS.ProcessEnv = process.env,
): Config[K] {
  const schema = configSchema.shape[name];
  const parsed = schema.safeParse(env[name]);
  if (!parsed.success) {
    const given = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(env[name])})`;
    throw new ConfigError([`${name} ${parsed.error.issues[0]?.message ?? 'is not valid'}${given}`]);
  }
  return parsed.data as Config[K];
}
