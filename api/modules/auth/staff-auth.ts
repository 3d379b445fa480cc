import type { Language } from '../../../machines/rules/language';
import { createHash, randomBytes } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Db } from '../../../drizzle/db';
import { masterData as masterDataTable } from '../../../drizzle/schema';
import { staffAccounts, staffSessions, type StaffAccountRow } from '../../../drizzle/schema-staff';
import {
  STAFF_IDLE_MINUTES,
  STAFF_SESSION_HOURS,
  type StaffAccountData,
  type StaffSettings,
  type StaffContact,
  type StaffMe,
  type StaffRole,
} from '../../../machines/rules/staff';
import type { SignIn } from '../../../machines/rules/staff-sign-in';
import { addMs, HOUR_MS, MINUTE_MS, type Clock } from '../../clock';
import { ApiError, UnauthorizedError } from '../../http/errors';
import { appendAudit, type MasterDataService } from '../shared';
import {
  newRecoveryCodes,
  recoveryCodeMatcher,
  storeRecoveryCodes,
  takeRecoveryCode,
} from './staff-recovery';
import { createSignInGate, type SignInGate, type SignInLimits } from './staff-sign-in-limits';

/**
 * Staff sign-in (docs/decisions/022-case-officer-console.md): a password hashed with argon2id
 * (@node-rs/argon2) and a TOTP code (RFC 6238, otpauth) or a one-time recovery code (staff-recovery.ts).
 * Every wrong answer (unknown name, wrong password, wrong code, a code used before) gets the same 401. An
 * attempt is counted before the password is checked, per account and address, per address and per account
 * from unknown addresses (staff-sign-in-limits.ts, docs/decisions/030-sign-in-lockouts.md), answered 429
 * with Retry-After past a limit. Sessions are rows of `staff_sessions` behind an HttpOnly cookie of their
 * own, with a short idle timeout.
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

export interface StaffSession {
  id: number;
  staff: StaffAccountRow;
  idleMinutes: number;
}

export interface StaffAuthService {
  /** `address`: the caller's (req.ip), whose HMAC the limits count under. */
  signIn(input: SignIn, address: string): Promise<{ token: string; me: StaffMe }>;
  authenticate(token: string | undefined): Promise<StaffSession>;
  /** Ends the session of `token`; answers whose it was (none: no live session). */
  signOut(token: string | undefined): Promise<{ id: number; role: StaffRole } | undefined>;
  me(session: StaffSession): StaffMe;
  /** Master data an admin keeps (spec §7): the staff idle timeout in minutes. */
  settings(): Promise<StaffSettings>;
  updateSettings(session: StaffSession, settings: StaffSettings, address: string): Promise<StaffSettings>;
  /** The staff accounts (admin). */
  accounts(): Promise<StaffAccountData[]>;
  /** The sign-in limits (the admin's staff list and unlock read and clear them). */
  gate: SignInGate;
}

export const STAFF_COOKIE = 'bd_staff';

export const hashStaffToken = (token: string) => createHash('sha256').update(`staff:${token}`).digest('hex');

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
  const matchRecoveryCode = recoveryCodeMatcher(db);
  return {
    async authenticate({ username, password, code }, now) {
      const [account] = await db.select().from(staffAccounts).where(eq(staffAccounts.username, username));
      const isTotp = /^\d{6}$/.test(code);
      // A recovery code is looked up whether or not the password is right: the same time either way.
      const [passwordOk, recoveryId] = await Promise.all([
        argonVerify(account?.passwordHash ?? (await dummy), password).catch(() => false),
        isTotp ? undefined : matchRecoveryCode(account?.id, code),
      ]);
      if (!account || !account.active || !passwordOk) return null;
      if (isTotp) {
        // A TOTP waiting for enrolment is not a second factor yet: the enrolment code opens the sign-in.
        if (account.totpPending) return null;
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
      return recoveryId !== undefined && (await takeRecoveryCode(db, recoveryId, now)) ? account : null;
    },
  };
}

export function createStaffAuthService({
  db,
  clock,
  masterData,
  secret,
  provider = passwordTotpProvider(db),
  limits,
}: {
  db: Db;
  clock: Clock;
  masterData: MasterDataService;
  /** Key of the HMACs the limits count under (no user name or address is stored in `rate_limits`). */
  secret: string | Buffer;
  provider?: StaffIdentityProvider;
  /** The sign-in limits (default DEFAULT_SIGN_IN_LIMITS; tests shorten a wait). */
  limits?: Partial<SignInLimits>;
}): StaffAuthService {
  const gate = createSignInGate({ db, secret, limits });

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
    totpPending: staff.totpPending,
  });

  return {
    async signIn(input, address) {
      // Counted before the password is checked: no more requests reach the check than the limits allow.
      const attempt = await gate.reserve(input.username, address);
      const now = clock.now();
      const staff = await provider.authenticate(input, now);
      if (!staff) throw new StaffSignInFailedError();
      await attempt.succeeded();
      await db.update(staffAccounts).set({ lastSignInAt: now }).where(eq(staffAccounts.id, staff.id));
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
      if (!token || token.length > 100) return undefined;
      const [ended] = await db
        .update(staffSessions)
        .set({ revokedAt: clock.now() })
        .where(and(eq(staffSessions.tokenHash, hashStaffToken(token)), isNull(staffSessions.revokedAt)))
        .returning({ staffId: staffSessions.staffId });
      if (!ended) return undefined;
      const [account] = await db
        .select({ id: staffAccounts.id, role: staffAccounts.role })
        .from(staffAccounts)
        .where(eq(staffAccounts.id, ended.staffId));
      return account ? { id: account.id, role: account.role as StaffRole } : undefined;
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
        await appendAudit(tx, {
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

    gate,
  };
}

export interface NewStaff extends StaffContact {
  username: string;
  role: StaffRole;
  password: string;
  /** Base32; default a new random 20-byte secret. */
  totpSecret?: string;
  /** The officer enrols the TOTP at the first sign-in (the admin's console; decision 036). */
  totpPending?: boolean;
  /** The language of the officer's emails (decision 039); default English. */
  language?: Language;
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
  await storeRecoveryCodes(db, row.id, recoveryCodes);
  return { id: row.id, totpSecret, otpauthUri: totpOf(totpSecret, input.username).toString(), recoveryCodes };
}
