import { createHash, createHmac, randomBytes } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Logger } from 'pino';
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '../../../drizzle/db';
import { auditEvents, masterData as masterDataTable, rateLimits } from '../../../drizzle/schema';
import {
  staffAccounts,
  staffRecoveryCodes,
  staffSessions,
  type StaffAccountRow,
} from '../../../drizzle/schema-staff';
import {
  LOCKOUT_SECONDS,
  SIGN_IN_ATTEMPTS,
  STAFF_IDLE_MINUTES,
  STAFF_SESSION_HOURS,
  type SignIn,
  type StaffAccountData,
  type StaffSettings,
  type StaffContact,
  type StaffMe,
  type StaffRole,
} from '../../../machines/rules/staff';
import { addMs, HOUR_MS, MINUTE_MS, type Clock } from '../../clock';
import { ApiError, UnauthorizedError } from '../../http/errors';
import type { MasterDataService } from '../shared';

/**
 * Staff sign-in (docs/decisions/022-case-officer-console.md): a password hashed with argon2id
 * (@node-rs/argon2) and a TOTP code (RFC 6238, otpauth) or a one-time recovery code. Every wrong answer
 * (unknown name, wrong password, wrong code, a code used before) gets the same 401 and counts toward the
 * account's lockout (rate-limiter-flexible in Postgres): SIGN_IN_ATTEMPTS failures lock it for
 * LOCKOUT_SECONDS, answered 429 with Retry-After. Sessions are rows of `staff_sessions` behind an HttpOnly
 * cookie of their own, with a short idle timeout.
 *
 * The department's own identity provider (OpenID Connect) replaces `signIn` in production: an
 * `StaffIdentityProvider` that answers the staff account for a verified ID token; sessions, roles and
 * the console stay as they are.
 */

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane): @node-rs/argon2's defaults. */
export const hashPassword = (password: string) => argonHash(password);

/** The seam for the department's identity provider: who signed in, or null. docs/console.md. */
export interface StaffIdentityProvider {
  authenticate(input: SignIn, now: Date): Promise<StaffAccountRow | null>;
}

export class StaffSignInFailedError extends ApiError {
  constructor() {
    super(401, 'STAFF_SIGN_IN_FAILED', 'staff.signInFailed');
  }
}

export class StaffLockedError extends ApiError {
  constructor(seconds: number) {
    super(
      429,
      'STAFF_LOCKED',
      'staff.locked',
      { retryAfterSeconds: seconds },
      { params: { minutes: Math.ceil(seconds / 60) }, headers: { 'Retry-After': String(seconds) } },
    );
  }
}

export interface StaffSession {
  id: number;
  staff: StaffAccountRow;
  idleMinutes: number;
}

export interface StaffAuthService {
  signIn(input: SignIn): Promise<{ token: string; me: StaffMe }>;
  authenticate(token: string | undefined): Promise<StaffSession>;
  signOut(token: string | undefined): Promise<void>;
  me(session: StaffSession): StaffMe;
  /** Master data an admin keeps (spec §7): the staff idle timeout in minutes. */
  settings(): Promise<StaffSettings>;
  updateSettings(session: StaffSession, settings: StaffSettings, address: string): Promise<StaffSettings>;
  /** The staff accounts (admin). */
  accounts(): Promise<StaffAccountData[]>;
}

export const STAFF_COOKIE = 'bd_staff';

export const hashStaffToken = (token: string) => createHash('sha256').update(`staff:${token}`).digest('hex');
export const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(code.toLowerCase()).digest('hex');

/** The TOTP of a secret (base32), SHA-1, 6 digits, 30 s: what authenticator apps read from the QR. */
export function totpOf(secret: string, label = 'staff'): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'BD Safety Portal',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** The time step a code is valid in (±1 step for clock drift), or null. */
function totpStep(secret: string, code: string, now: Date): number | null {
  const at = now.getTime();
  const delta = totpOf(secret).validate({ token: code, timestamp: at, window: 1 });
  return delta === null ? null : Math.floor(at / 30_000) + delta;
}

/** A password-and-TOTP provider on the `staff_accounts` table (the default, and the demo's). */
export function passwordTotpProvider(db: Db): StaffIdentityProvider {
  // Verified even for an unknown name, so that the answer takes as long either way.
  const dummy = hashPassword(randomBytes(16).toString('hex'));
  return {
    async authenticate({ username, password, code }, now) {
      const [account] = await db.select().from(staffAccounts).where(eq(staffAccounts.username, username));
      const passwordOk = await argonVerify(account?.passwordHash ?? (await dummy), password).catch(
        () => false,
      );
      if (!account || !account.active || !passwordOk) return null;
      if (/^\d{6}$/.test(code)) {
        const step = totpStep(account.totpSecret, code, now);
        if (step === null) return null;
        // Compare-and-set: a code is taken once, even by two requests at the same moment.
        const [taken] = await db
          .update(staffAccounts)
          .set({ totpLastStep: step })
          .where(
            and(
              eq(staffAccounts.id, account.id),
              or(isNull(staffAccounts.totpLastStep), lt(staffAccounts.totpLastStep, step)),
            ),
          )
          .returning({ id: staffAccounts.id });
        return taken ? account : null;
      }
      const [used] = await db
        .update(staffRecoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(staffRecoveryCodes.staffId, account.id),
            eq(staffRecoveryCodes.codeHash, hashRecoveryCode(code)),
            isNull(staffRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: staffRecoveryCodes.id });
      return used ? account : null;
    },
  };
}

export function createStaffAuthService({
  db,
  clock,
  masterData,
  secret,
  logger,
  provider = passwordTotpProvider(db),
}: {
  db: Db;
  clock: Clock;
  masterData: MasterDataService;
  /** Key of the HMAC the lockout counts under (no user name is stored in `rate_limits`). */
  secret: string | Buffer;
  logger: Logger;
  provider?: StaffIdentityProvider;
}): StaffAuthService {
  const lockout = new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix: 'staffSignIn',
    points: SIGN_IN_ATTEMPTS,
    duration: LOCKOUT_SECONDS,
  });
  const keyOf = (username: string) =>
    createHmac('sha256', secret).update(`staff|${username}`).digest('base64url');

  async function idleMinutes(): Promise<number> {
    const [row] = await masterData.find({ type: 'admin_setting', code: 'staff_idle_minutes' });
    const minutes = Number(row?.dataValue);
    return Number.isInteger(minutes) && minutes > 0 && minutes <= 60 ? minutes : STAFF_IDLE_MINUTES;
  }

  const meOf = (staff: StaffAccountRow, idle: number): StaffMe => ({
    id: staff.id,
    username: staff.username,
    role: staff.role as StaffRole,
    nameEn: staff.nameEn,
    nameZh: staff.nameZh,
    postEn: staff.postEn,
    postZh: staff.postZh,
    idleMinutes: idle,
  });

  return {
    async signIn(input) {
      const key = keyOf(input.username);
      const spent = await lockout.get(key);
      if (spent && spent.consumedPoints >= SIGN_IN_ATTEMPTS)
        throw new StaffLockedError(Math.max(1, Math.ceil(spent.msBeforeNext / 1000)));
      const now = clock.now();
      const staff = await provider.authenticate(input, now);
      if (!staff) {
        await lockout.consume(key).catch((rejection: unknown) => {
          if (rejection instanceof Error)
            logger.warn({ err: rejection }, 'staff sign-in failure not counted');
        });
        throw new StaffSignInFailedError();
      }
      await lockout.delete(key);
      const token = randomBytes(32).toString('base64url');
      const idle = await idleMinutes();
      await db.insert(staffSessions).values({
        tokenHash: hashStaffToken(token),
        staffId: staff.id,
        createdAt: now,
        lastSeenAt: now,
        idleMinutes: idle,
        absoluteExpiresAt: addMs(now, STAFF_SESSION_HOURS * HOUR_MS),
      });
      return { token, me: meOf(staff, idle) };
    },

    async authenticate(token) {
      if (!token || token.length > 100) throw new UnauthorizedError();
      const [row] = await db
        .select({ session: staffSessions, staff: staffAccounts })
        .from(staffSessions)
        .innerJoin(staffAccounts, eq(staffAccounts.id, staffSessions.staffId))
        .where(eq(staffSessions.tokenHash, hashStaffToken(token)));
      const now = clock.now();
      if (
        !row ||
        row.session.revokedAt ||
        !row.staff.active ||
        now >= row.session.absoluteExpiresAt ||
        now >= addMs(row.session.lastSeenAt, row.session.idleMinutes * MINUTE_MS)
      )
        throw new UnauthorizedError();
      await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, row.session.id));
      return { id: row.session.id, staff: row.staff, idleMinutes: row.session.idleMinutes };
    },

    async signOut(token) {
      if (!token) return;
      await db
        .update(staffSessions)
        .set({ revokedAt: clock.now() })
        .where(and(eq(staffSessions.tokenHash, hashStaffToken(token)), isNull(staffSessions.revokedAt)));
    },

    me: (session) => meOf(session.staff, session.idleMinutes),

    async settings() {
      return { staffIdleMinutes: await idleMinutes() };
    },

    async updateSettings(session, settings, address) {
      const before = await idleMinutes();
      const now = clock.now();
      await db.transaction(async (tx) => {
        await tx
          .delete(masterDataTable)
          .where(
            and(eq(masterDataTable.type, 'admin_setting'), eq(masterDataTable.code, 'staff_idle_minutes')),
          );
        await tx.insert(masterDataTable).values({
          type: 'admin_setting',
          code: 'staff_idle_minutes',
          dataValue: String(settings.staffIdleMinutes),
          description: 'Idle minutes before a staff session of the console ends',
          updatedAt: now,
        });
        await tx.insert(auditEvents).values({
          at: now,
          actor: session.staff.role,
          actorRef: `staff:${session.staff.id}`,
          event: 'settings.update',
          before: { staffIdleMinutes: before },
          after: settings,
          address,
        });
      });
      masterData.clearCache();
      return settings;
    },

    async accounts() {
      const rows = await db.select().from(staffAccounts).orderBy(asc(staffAccounts.id));
      return rows.map((r) => ({
        id: r.id,
        username: r.username,
        role: r.role as StaffRole,
        nameEn: r.nameEn,
        nameZh: r.nameZh,
        active: r.active,
      }));
    },
  };
}

/** Ten recovery codes `xxxxx-xxxxx` (shown once at enrolment; only their hashes are kept). */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: 10 }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export interface NewStaff extends StaffContact {
  username: string;
  role: StaffRole;
  password: string;
  /** Base32; default a new random 20-byte secret. */
  totpSecret?: string;
}

/**
 * Creates a staff account (the admin command scripts/staff.ts and the demo seed): answers its TOTP secret,
 * the otpauth:// URI an authenticator app reads (as a QR code) and the recovery codes.
 */
export async function createStaffAccount(
  db: Db,
  input: NewStaff,
): Promise<{ id: number; totpSecret: string; otpauthUri: string; recoveryCodes: string[] }> {
  const totpSecret = input.totpSecret ?? new OTPAuth.Secret({ size: 20 }).base32;
  const { password, ...rest } = input;
  const [row] = await db
    .insert(staffAccounts)
    .values({
      ...rest,
      username: input.username.toLowerCase(),
      totpSecret,
      passwordHash: await hashPassword(password),
    })
    .returning({ id: staffAccounts.id });
  if (!row) throw new Error('staff account not created');
  const recoveryCodes = newRecoveryCodes();
  await db
    .insert(staffRecoveryCodes)
    .values(recoveryCodes.map((code) => ({ staffId: row.id, codeHash: hashRecoveryCode(code) })));
  return { id: row.id, totpSecret, otpauthUri: totpOf(totpSecret, input.username).toString(), recoveryCodes };
}
