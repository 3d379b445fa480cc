import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../api/config';
import { serverOptionsFromEnv } from '../../api/server';

/**
 * The configuration (api/config.ts): every variable validated at start with one clear line per bad
 * value; production refuses to start when email or SMS would go to the outbox, or without the secrets.
 */

const SECRET = 'x'.repeat(40);
const HKIC_KEY = Buffer.alloc(32, 7).toString('base64');
const PRODUCTION = {
  NODE_ENV: 'production',
  OTP_SECRET: SECRET,
  HKIC_KEYS: `k1:${HKIC_KEY}`,
  SMTP_URL: 'smtp://mail.internal:25',
  SMS_GATEWAY_URL: 'https://sms.internal/send',
  SMS_GATEWAY_TOKEN: 'token',
  CLAMD_HOST: 'clamd.internal',
  PUBLIC_ORIGIN: 'https://portal.bd.example.hk',
  SEAL_P12: '/run/secrets/seal.p12',
  SEAL_P12_PASSWORD: 'seal password',
};

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('the configuration', () => {
  it('has a default for everything in development', () => {
    const config = loadConfig({});

    expect(config).toMatchObject({ PORT: 3000, HOST: '0.0.0.0', DRAFT_VALIDITY_DAYS: 14, DEV_TOOLS: '0' });
  });

  it.each([
    ['PORT', 'http', /^PORT must be a whole number from 0 to 65535 \(got "http"\)$/],
    ['PORT', '70000', /^PORT must be a whole number/],
    ['DATABASE_URL', 'mysql://db', /^DATABASE_URL must be a URL \(postgres: or postgresql:\)$/],
    ['SMTP_URL', 'mail.internal', /^SMTP_URL must be a URL/],
    ['DRAFT_VALIDITY_DAYS', '1.5', /^DRAFT_VALIDITY_DAYS must be a whole number from 1 to 365/],
    ['UPLOAD_MAX_FILE_MB', '-1', /^UPLOAD_MAX_FILE_MB must be a positive number/],
    ['DEV_TOOLS', 'yes', /^DEV_TOOLS must be one of 0, 1/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL must be one of/],
    ['OTP_SECRET', 'short', /^OTP_SECRET must be at least 32 characters$/],
    ['HKIC_KEYS', 'k1', /^HKIC_KEYS key 1 must be id:base64/],
    ['HKIC_KEYS', 'k1:c2hvcnQ=', /^HKIC_KEYS key "k1" must be 32 random bytes in base64/],
    ['HKIC_KEYS', `k1:${HKIC_KEY},k1:${HKIC_KEY}`, /^HKIC_KEYS key id "k1" is listed twice$/],
    ['PDF_CHECK_TIMEOUT_SECONDS', '0', /^PDF_CHECK_TIMEOUT_SECONDS must be a positive number/],
    ['PUBLIC_ORIGIN', 'portal.bd.example.hk', /^PUBLIC_ORIGIN must be the portal's address/],
    ['PUBLIC_ORIGIN', 'ftp://portal.bd.example.hk', /^PUBLIC_ORIGIN must be the portal's address/],
    ['PUBLIC_ORIGIN', 'https://portal.bd.example.hk/apply', /^PUBLIC_ORIGIN must be the portal's address/],
    ['PUBLIC_ORIGIN', 'https://portal.bd.example.hk/?x=1', /^PUBLIC_ORIGIN must be the portal's address/],
  ])('refuses %s=%s with one line naming it', (name, value, message) => {
    const found = problems({ [name]: value });

    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it('lists every bad value at once', () => {
    expect(problems({ PORT: 'x', DEMO_DATA: 'maybe', RATE_LIMITS: 'sometimes' })).toHaveLength(3);
  });

  it('never repeats a secret in its errors', () => {
    expect(problems({ OTP_SECRET: 'hunter2' }).join('')).not.toContain('hunter2');
    expect(problems({ HKIC_KEYS: 'k1:aHVudGVyMg==' }).join('')).not.toContain('aHVudGVyMg');
  });

  it('reads HKIC_KEYS as a ring whose first key seals', () => {
    const ring = loadConfig({
      HKIC_KEYS: `k2:${HKIC_KEY}, k1:${Buffer.alloc(32, 1).toString('base64url')}`,
    }).HKIC_KEYS;

    expect(ring?.sealWith).toBe('k2');
    expect([...(ring?.keys.keys() ?? [])]).toEqual(['k2', 'k1']);
  });

  it('makes the server refuse to start (serverOptionsFromEnv throws the whole list)', () => {
    expect(() => serverOptionsFromEnv({ PORT: 'x', DRAFT_VALIDITY_DAYS: '0' })).toThrow(
      /PORT must be[\s\S]*DRAFT_VALIDITY_DAYS must be/,
    );
  });
});

describe('production', () => {
  it('starts with real email, SMS and the secrets', () => {
    expect(problems(PRODUCTION)).toEqual([]);
  });

  it.each([
    ['OTP_SECRET', /OTP_SECRET must be set in production/],
    ['HKIC_KEYS', /^HKIC_KEYS must be set in production \(the keys HKIC numbers are sealed with at rest\)$/],
    ['SMTP_URL', /SMTP_URL must be set in production \(email would go to the outbox\)/],
    ['SMS_GATEWAY_URL', /SMS_GATEWAY_URL must be set in production \(SMS would go to the outbox\)/],
    ['SMS_GATEWAY_TOKEN', /SMS_GATEWAY_TOKEN must be set in production/],
    ['CLAMD_HOST', /CLAMD_HOST or CLAMD_SOCKET must be set in production/],
    ['PUBLIC_ORIGIN', /^PUBLIC_ORIGIN must be set in production \(the portal's address as people open it/],
    ['SEAL_P12', /^SEAL_P12 must be set in production \(the department's seal on issued letters\)$/],
  ])('refuses to start without %s', (name, message) => {
    const found = problems({ ...PRODUCTION, [name]: undefined });

    expect(found.some((p) => message.test(p))).toBe(true);
  });

  it('without PUBLIC_ORIGIN, the server does not start and says why in one line', () => {
    expect(() => serverOptionsFromEnv({ ...PRODUCTION, PUBLIC_ORIGIN: '' })).toThrow(
      /PUBLIC_ORIGIN must be set in production .*links in invitations/,
    );
    expect(problems({ ...PRODUCTION, PUBLIC_ORIGIN: undefined })).toHaveLength(1);
  });

  it('keeps the configured address without its trailing slash', () => {
    expect(loadConfig({ ...PRODUCTION, PUBLIC_ORIGIN: 'https://portal.bd.example.hk/' }).PUBLIC_ORIGIN).toBe(
      'https://portal.bd.example.hk',
    );
  });

  it('refuses the development tools and turning the rate limits off', () => {
    expect(problems({ ...PRODUCTION, DEV_TOOLS: '1', RATE_LIMITS: 'off' })).toHaveLength(2);
  });
});

describe('the document storage', () => {
  it('keeps documents on disk unless told otherwise, and takes a complete S3 setting', () => {
    expect(loadConfig({}).DOCUMENT_STORAGE).toBe('local');
    expect(
      loadConfig({
        DOCUMENT_STORAGE: 's3',
        S3_BUCKET: 'bd-documents',
        S3_ENDPOINT: 'https://minio.bd.internal:9000',
        S3_FORCE_PATH_STYLE: '1',
        S3_SSE: 'aws:kms',
        S3_SSE_KMS_KEY_ID: 'alias/bd',
      }),
    ).toMatchObject({ DOCUMENT_STORAGE: 's3', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: '1' });
  });

  it('refuses S3 settings that do not fit together, and never echoes the secret key', () => {
    expect(problems({ DOCUMENT_STORAGE: 's3' })).toEqual([
      'S3_BUCKET must be set with DOCUMENT_STORAGE=s3 (the bucket the documents are kept in)',
    ]);
    expect(problems({ S3_SECRET_ACCESS_KEY: 'very secret' })).toEqual([
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for a role)',
    ]);
    expect(problems({ S3_FORCE_PATH_STYLE: 'yes', S3_SSE: 'des' })).toEqual([
      'S3_FORCE_PATH_STYLE must be one of 0, 1 (got "yes")',
      'S3_SSE must be one of AES256, aws:kms (got "des")',
    ]);
  });
});

describe('the README', () => {
  it('lists exactly the variables of the configuration in its table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('### Against a real Postgres'),
    );
    const listed = [...section.matchAll(/^\| `([A-Z0-9_]+)`(?:, `([A-Z0-9_]+)`)?/gm)].flatMap((m) =>
      [m[1], m[2]].filter((v): v is string => v !== undefined),
    );

    expect([...listed].sort()).toEqual([...CONFIG_VARIABLES, 'CHROMIUM_PATH'].sort());
  });
});
