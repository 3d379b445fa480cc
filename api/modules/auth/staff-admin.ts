import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, exists, inArray, isNull, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Db } from '../../../drizzle/db';
import { applications } from '../../../drizzle/schema';
import {
  caseAssignments,
  staffAccounts,
  staffRecoveryCodes,
  staffSessions,
  type StaffAccountRow,
} from '../../../drizzle/schema-staff';
import { OPEN_STATUSES } from '../../../machines/rules/case-lifecycle';
import type { StaffRole } from '../../../machines/rules/staff';
import type {
  StaffAdminRow,
  StaffCreate,
  StaffCreated,
  StaffEnrolled,
  StaffEnrolment,
  StaffReassigned,
  StaffTotpReset,
} from '../../../machines/rules/staff-admin';
import type { Clock } from '../../clock';
import { ApiError, NotFoundError } from '../../http/errors';
import { appendAudit } from '../shared';
import { createStaffAccount, totpOf, type StaffSession } from './staff-auth';
import { newRecoveryCodes, storeRecoveryCodes } from './staff-recovery';
import type { SignInGate } from './staff-sign-in-limits';

/**
 * The admin's part of the console (docs/console.md, "Staff administration";
 * docs/decisions/036-staff-administration.md): the staff list, creating an account, disabling and
 * re-enabling it, resetting its TOTP, clearing its sign-in lockout and handing its open cases to a
 * colleague. Each change is one transaction with its audit row (who, what, before → after; ids only).
 */

export class StaffConflictError extends ApiError {
  constructor(
    code:
      | 'STAFF_SELF'
      | 'STAFF_LAST_ADMIN'
      | 'STAFF_USERNAME_TAKEN'
      | 'STAFF_REASSIGN_TARGET'
      | 'STAFF_NOT_PENDING',
    key:
      | 'staffAdmin.self'
      | 'staffAdmin.lastAdmin'
      | 'staffAdmin.usernameTaken'
      | 'staffAdmin.reassignTarget'
      | 'staffAdmin.notPending',
  ) {
    super(409, code, key);
  }
}

export class StaffEnrolmentRequiredError extends ApiError {
  constructor() {
    super(403, 'STAFF_ENROLMENT_REQUIRED', 'staffAdmin.enrolmentRequired');
  }
}

export class StaffEnrolmentCodeError extends ApiError {
  constructor() {
    super(422, 'STAFF_CODE_WRONG', 'staffAdmin.codeWrong');
  }
}

export interface StaffAdminService {
  list(): Promise<StaffAdminRow[]>;
  create(admin: StaffSession, input: StaffCreate): Promise<StaffCreated>;
  setActive(admin: StaffSession, id: number, active: boolean): Promise<StaffAdminRow>;
  resetTotp(admin: StaffSession, id: number): Promise<StaffTotpReset>;
  unlock(admin: StaffSession, id: number): Promise<StaffAdminRow>;
  reassign(admin: StaffSession, fromId: number, toId: number): Promise<StaffReassigned>;
  /** The signed-in officer's TOTP waiting for enrolment. */
  enrolment(session: StaffSession): Promise<StaffEnrolment>;
  enrol(session: StaffSession, code: string): Promise<StaffEnrolled>;
}

/** A password of 20 characters of an unambiguous alphabet (about 98 bits), shown once to the admin. */
export function initialPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const chars = [...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10, 15)}-${chars.slice(15)}`;
}

const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export function createStaffAdminService({
  db,
  clock,
  gate,
}: {
  db: Db;
  clock: Clock;
  gate: SignInGate;
}): StaffAdminService {
  const open = inArray(applications.status, [...OPEN_STATUSES]);

  async function openCasesOf(ids?: number[]): Promise<Map<number, number>> {
    const rows = await db
      .select({ staffId: caseAssignments.staffId, n: count() })
      .from(caseAssignments)
      .innerJoin(applications, eq(applications.id, caseAssignments.applicationId))
      .where(ids ? and(open, inArray(caseAssignments.staffId, ids)) : open)
      .groupBy(caseAssignments.staffId);
    return new Map(rows.map((r) => [r.staffId, r.n]));
  }

  async function rowOf(r: StaffAccountRow, openCases?: Map<number, number>): Promise<StaffAdminRow> {
    const cases = openCases ?? (await openCasesOf([r.id]));
    const locked = await gate.lockedUntil(r.username);
    return {
      id: r.id,
      username: r.username,
      role: r.role as StaffRole,
      nameEn: r.nameEn,
      nameZh: r.nameZh,
      postEn: r.postEn,
      postZh: r.postZh,
      active: r.active,
      lockedUntil: locked?.toISOString() ?? null,
      totpPending: r.totpPending,
      lastSignInAt: r.lastSignInAt?.toISOString() ?? null,
      openCases: cases.get(r.id) ?? 0,
    };
  }

  async function accountOf(tx: Db, id: number, lock = false): Promise<StaffAccountRow> {
    const query = tx.select().from(staffAccounts).where(eq(staffAccounts.id, id));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new NotFoundError('staffAdmin.notFound');
    return row;
  }

  const actorOf = (admin: StaffSession) => ({
    actor: admin.staff.role,
    actorRef: `staff:${admin.staff.id}`,
  });

  /** Ends every live session of the account, at once. */
  const endSessions = (tx: Db, staffId: number, now: Date) =>
    tx
      .update(staffSessions)
      .set({ revokedAt: now })
      .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt)));

  /** A new enrolment code: the account's only recovery code until the officer enrols (036). */
  async function newEnrolmentCode(tx: Db, staffId: number): Promise<string> {
    const [code] = newRecoveryCodes();
    if (!code) throw new Error('no enrolment code');
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
    await storeRecoveryCodes(tx, staffId, [code]);
    return code;
  }

  return {
    async list() {
      const rows = await db
        .select()
        .from(staffAccounts)
        .orderBy(asc(staffAccounts.nameEn), asc(staffAccounts.id));
      const cases = await openCasesOf();
      return Promise.all(rows.map((r) => rowOf(r, cases)));
    },

    async create(admin, input) {
      const password = initialPassword();
      const now = clock.now();
      let made: Awaited<ReturnType<typeof createStaffAccount>>;
      let enrolmentCode = '';
      try {
        made = await db.transaction(async (tx) => {
          const [taken] = await tx
            .select({ id: staffAccounts.id })
            .from(staffAccounts)
            .where(eq(staffAccounts.username, input.username));
          if (taken) throw new StaffConflictError('STAFF_USERNAME_TAKEN', 'staffAdmin.usernameTaken');
          const account = await createStaffAccount(tx, { ...input, password, totpPending: true });
          enrolmentCode = await newEnrolmentCode(tx, account.id);
          await appendAudit(tx, {
            at: now,
            ...actorOf(admin),
            event: 'staff.create',
            reference: `staff:${account.id}`,
            before: null,
            after: { id: account.id, role: input.role, active: true, totpPending: true },
          });
          return account;
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw new StaffConflictError('STAFF_USERNAME_TAKEN', 'staffAdmin.usernameTaken');
        throw error;
      }
      return {
        account: await rowOf(await accountOf(db, made.id)),
        initialPassword: password,
        enrolmentCode,
      };
    },

    async setActive(admin, id, active) {
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (!active && id === admin.staff.id) throw new StaffConflictError('STAFF_SELF', 'staffAdmin.self');
        // Every active admin row locked, in id order: two admins disabling each other at once cannot
        // both pass the count below.
        const admins = await tx
          .select({ id: staffAccounts.id })
          .from(staffAccounts)
          .where(and(eq(staffAccounts.role, 'admin'), eq(staffAccounts.active, true)))
          .orderBy(asc(staffAccounts.id))
          .for('update');
        const account = await accountOf(tx, id, true);
        if (account.active === active) return;
        if (!active && account.role === 'admin' && admins.filter((a) => a.id !== id).length === 0)
          throw new StaffConflictError('STAFF_LAST_ADMIN', 'staffAdmin.lastAdmin');
        await tx.update(staffAccounts).set({ active }).where(eq(staffAccounts.id, id));
        if (!active) await endSessions(tx, id, now);
        await appendAudit(tx, {
          at: now,
          ...actorOf(admin),
          event: active ? 'staff.enable' : 'staff.disable',
          reference: `staff:${id}`,
          before: { active: account.active },
          after: { active },
        });
      });
      return rowOf(await accountOf(db, id));
    },

    async resetTotp(admin, id) {
      const now = clock.now();
      const enrolmentCode = await db.transaction(async (tx) => {
        const account = await accountOf(tx, id, true);
        await tx
          .update(staffAccounts)
          .set({ totpSecret: new OTPAuth.Secret({ size: 20 }).base32, totpPending: true, totpLastStep: null })
          .where(eq(staffAccounts.id, id));
        const code = await newEnrolmentCode(tx, id);
        // Whoever holds the lost device may hold a session too: every session ends.
        await endSessions(tx, id, now);
        await appendAudit(tx, {
          at: now,
          ...actorOf(admin),
          event: 'staff.totpReset',
          reference: `staff:${id}`,
          before: { totpPending: account.totpPending },
          after: { totpPending: true, sessionsEnded: true },
        });
        return code;
      });
      return { account: await rowOf(await accountOf(db, id)), enrolmentCode };
    },

    async unlock(admin, id) {
      const account = await accountOf(db, id);
      const now = clock.now();
      const before = await gate.lockedUntil(account.username);
      await db.transaction(async (tx) => {
        await appendAudit(tx, {
          at: now,
          ...actorOf(admin),
          event: 'staff.unlock',
          reference: `staff:${id}`,
          before: { lockedUntil: before?.toISOString() ?? null },
          after: { lockedUntil: null },
        });
      });
      await gate.unlock(account.username);
      return rowOf(account);
    },

    async reassign(admin, fromId, toId) {
      const from = await accountOf(db, fromId);
      const [to] = await db.select().from(staffAccounts).where(eq(staffAccounts.id, toId));
      if (
        !to ||
        !to.active ||
        to.id === from.id ||
        (to.role !== 'caseOfficer' && to.role !== 'seniorOfficer')
      )
        throw new StaffConflictError('STAFF_REASSIGN_TARGET', 'staffAdmin.reassignTarget');
      const cases = await db
        .select({ id: applications.id, applicationNo: applications.applicationNo })
        .from(caseAssignments)
        .innerJoin(applications, eq(applications.id, caseAssignments.applicationId))
        .where(and(eq(caseAssignments.staffId, fromId), open))
        .orderBy(asc(applications.applicationNo));
      const moved: string[] = [];
      for (const c of cases) {
        const now = clock.now();
        // Compare-and-set per case: still the officer's, and still open. A case another officer took, or
        // one finished meanwhile, is left as it is.
        const done = await db.transaction(async (tx) => {
          const [row] = await tx
            .update(caseAssignments)
            .set({ staffId: toId, assignedAt: now, assignedBy: admin.staff.id })
            .where(
              and(
                eq(caseAssignments.applicationId, c.id),
                eq(caseAssignments.staffId, fromId),
                exists(
                  tx
                    .select({ one: sql`1` })
                    .from(applications)
                    .where(and(eq(applications.id, c.id), open)),
                ),
              ),
            )
            .returning({ id: caseAssignments.applicationId });
          if (!row) return false;
          await appendAudit(tx, {
            at: now,
            ...actorOf(admin),
            event: 'case.reassign',
            applicationId: c.id,
            reference: `staff:${fromId}`,
            before: { assignedTo: fromId },
            after: { assignedTo: toId },
          });
          return true;
        });
        if (done) moved.push(c.applicationNo);
      }
      return { moved, skipped: cases.length - moved.length };
    },

    async enrolment(session) {
      const account = await accountOf(db, session.staff.id);
      if (!account.totpPending) throw new StaffConflictError('STAFF_NOT_PENDING', 'staffAdmin.notPending');
      return {
        otpauthUri: totpOf(account.totpSecret, account.username).toString(),
        secret: account.totpSecret,
      };
    },

    async enrol(session, code) {
      const now = clock.now();
      const recoveryCodes = newRecoveryCodes();
      await db.transaction(async (tx) => {
        const account = await accountOf(tx, session.staff.id, true);
        if (!account.totpPending) throw new StaffConflictError('STAFF_NOT_PENDING', 'staffAdmin.notPending');
        const at = now.getTime();
        const delta = totpOf(account.totpSecret).validate({ token: code, timestamp: at, window: 1 });
        if (delta === null) throw new StaffEnrolmentCodeError();
        await tx
          .update(staffAccounts)
          .set({ totpPending: false, totpLastStep: Math.floor(at / 30_000) + delta })
          .where(eq(staffAccounts.id, account.id));
        await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, account.id));
        await storeRecoveryCodes(tx, account.id, recoveryCodes);
        await appendAudit(tx, {
          at: now,
          actor: account.role,
          actorRef: `staff:${account.id}`,
          event: 'staff.enrol',
          reference: `staff:${account.id}`,
          before: { totpPending: true },
          after: { totpPending: false },
        });
      });
      return { recoveryCodes };
    },
  };
}
