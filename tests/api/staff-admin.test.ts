import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffAdminService } from '../../api/modules/auth/staff-admin';
import { totpOf, type StaffSession } from '../../api/modules/auth/staff-auth';
import { auditEvents } from '../../drizzle/schema';
import { caseAssignments, staffAccounts } from '../../drizzle/schema-staff';
import type { StaffMe } from '../../machines/rules/staff';
import type {
  StaffAdminRow,
  StaffCreated,
  StaffEnrolled,
  StaffEnrolment,
  StaffReassigned,
  StaffTotpReset,
} from '../../machines/rules/staff-admin';
import { SIGN_IN_ATTEMPTS } from '../../machines/rules/staff-sign-in';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * Staff administration (docs/console.md, docs/decisions/036-staff-administration.md) through the API:
 * the list, creating an account and its first sign-in with enrolment, disabling (sessions end at once,
 * no sign-in), the self and last-admin rules, unlock, TOTP reset, reassigning open cases; each audited
 * with ids only; each refusal a clear 4xx in three languages. PGlite, or Postgres with DATABASE_URL.
 */
let h: ConsoleHarness;
let admin: StaffUser;

const rowOf = async (id: number) => {
  const list = await h.staffCall<StaffAdminRow[]>('GET', '/api/staff/accounts', admin.token);
  const row = list.body.data.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};
const auditOf = async (event: string) =>
  h.database.db.select().from(auditEvents).where(eq(auditEvents.event, event));

beforeAll(async () => {
  h = await startConsoleHarness();
  admin = await h.staff('admin', 'sa.admin');
});

afterAll(async () => {
  await h?.close();
});

describe('the staff list', () => {
  it('names each account with its state, lockout, last sign-in and open cases', async () => {
    const officer = await h.staff('caseOfficer', 'sa.listed');
    const app = await h.submittedCase();
    await h.staffAct(officer.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: officer.id });
    const signedIn = await h.signIn({
      username: officer.username,
      password: officer.password,
      code: h.totp(officer.totpSecret),
    });
    expect(signedIn.status).toBe(200);
    const row = await rowOf(officer.id);
    expect(row).toMatchObject({
      username: 'sa.listed',
      role: 'caseOfficer',
      active: true,
      lockedUntil: null,
      totpPending: false,
      openCases: 1,
    });
    expect(row.lastSignInAt).toBe(h.clock.now().toISOString());
    expect(JSON.stringify(row)).not.toMatch(/passwordHash|totpSecret|@bd\.gov\.hk/);
  });
});

describe('creating an account', () => {
  const body = {
    username: 'Sa.New',
    role: 'caseOfficer',
    nameEn: 'WONG Siu Ming',
    nameZh: '黃小明',
    postEn: 'Building Surveyor',
    postZh: '屋宇測量師',
    telephone: '2626 1616',
    email: 'sa.new@bd.gov.hk',
  };

  it('answers the initial password and enrolment code once; the officer enrols a TOTP at first sign-in', async () => {
    const made = await h.staffCall<StaffCreated>('POST', '/api/staff/accounts', admin.token, body);
    expect(made.status).toBe(201);
    const { account, initialPassword, enrolmentCode } = made.body.data;
    expect(account).toMatchObject({ username: 'sa.new', active: true, totpPending: true });
    expect(initialPassword.length).toBeGreaterThanOrEqual(20);

    // Any TOTP is refused while the enrolment waits; the enrolment code opens the sign-in.
    const refused = await h.signIn({ username: 'sa.new', password: initialPassword, code: '123456' });
    expect(refused.status).toBe(401);
    const signedIn = await h.signIn({ username: 'sa.new', password: initialPassword, code: enrolmentCode });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.totpPending).toBe(true);
    const token = /bd_staff=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1];
    expect(token).toBeTruthy();

    // Nothing but the enrolment until it is done.
    const queue = await h.staffCall('GET', '/api/staff/cases', token);
    expect(queue.status).toBe(403);
    expect(queue.body.meta.code).toBe('STAFF_ENROLMENT_REQUIRED');
    const enrolment = await h.staffCall<StaffEnrolment>('GET', '/api/staff/enrolment', token);
    expect(enrolment.status).toBe(200);
    expect(enrolment.body.data.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    const wrong = await h.staffCall('POST', '/api/staff/enrolment?lang=tc', token, { code: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.meta.message).toMatch(/代碼不正確/);
    const code = totpOf(enrolment.body.data.secret).generate({ timestamp: h.clock.now().getTime() });
    const enrolled = await h.staffCall<StaffEnrolled>('POST', '/api/staff/enrolment', token, { code });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.data.recoveryCodes).toHaveLength(10);
    expect((await h.staffCall('GET', '/api/staff/cases', token)).status).toBe(200);
    // The enrolment code was replaced by the new recovery codes.
    h.clock.advance({ minutes: 1 });
    const again = await h.signIn({ username: 'sa.new', password: initialPassword, code: enrolmentCode });
    expect(again.status).toBe(401);
    const withTotp = await h.signIn({
      username: 'sa.new',
      password: initialPassword,
      code: totpOf(enrolment.body.data.secret).generate({ timestamp: h.clock.now().getTime() }),
    });
    expect(withTotp.status).toBe(200);

    const [created] = await auditOf('staff.create');
    expect(created).toMatchObject({ actorRef: `staff:${admin.id}`, reference: `staff:${account.id}` });
    expect(JSON.stringify(created)).not.toMatch(/WONG|黃|sa\.new|bd\.gov\.hk|2626/);
  });

  it('refuses a user name taken, and field errors, in three languages', async () => {
    const taken = await h.staffCall('POST', '/api/staff/accounts?lang=sc', admin.token, body);
    expect(taken.status).toBe(409);
    expect(taken.body.meta.code).toBe('STAFF_USERNAME_TAKEN');
    expect(taken.body.meta.message).toMatch(/已被另一帐户使用/);
    const bad = await h.staffCall<{ errors: { path: string; message: string }[] }>(
      'POST',
      '/api/staff/accounts?lang=en',
      admin.token,
      { ...body, username: '1x', email: 'nope', role: 'king' },
    );
    expect(bad.status).toBe(400);
    const paths = bad.body.data.errors.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['username', 'email', 'role']));
    expect(bad.body.data.errors.find((e) => e.path === 'username')?.message).toMatch(/lower case letters/);
  });

  it("keeps the language of the officer's emails (English unless chosen), and refuses another", async () => {
    const languageOf = async (username: string) =>
      (
        await h.database.db
          .select({ language: staffAccounts.language })
          .from(staffAccounts)
          .where(eq(staffAccounts.username, username))
      )[0]?.language;
    const tc = await h.staffCall('POST', '/api/staff/accounts', admin.token, {
      ...body,
      username: 'sa.lang.tc',
      email: 'sa.lang.tc@bd.gov.hk',
      language: 'tc',
    });
    expect(tc.status).toBe(201);
    expect(await languageOf('sa.lang.tc')).toBe('tc');
    const plain = await h.staffCall('POST', '/api/staff/accounts', admin.token, {
      ...body,
      username: 'sa.lang.en',
      email: 'sa.lang.en@bd.gov.hk',
    });
    expect(plain.status).toBe(201);
    expect(await languageOf('sa.lang.en')).toBe('en');
    const other = await h.staffCall<{ errors: { path: string }[] }>(
      'POST',
      '/api/staff/accounts',
      admin.token,
      {
        ...body,
        username: 'sa.lang.fr',
        email: 'sa.lang.fr@bd.gov.hk',
        language: 'fr',
      },
    );
    expect(other.status).toBe(400);
    expect(other.body.data.errors.map((e) => e.path)).toContain('language');
  });
});

describe('disabling and enabling', () => {
  it('ends the sessions at once and refuses the sign-in; enabling lets the officer in again', async () => {
    const officer = await h.staff('caseOfficer', 'sa.disabled');
    expect((await h.queue(officer.token)).status).toBe(200);
    const disabled = await h.staffCall<StaffAdminRow>(
      'POST',
      `/api/staff/accounts/${officer.id}/disable`,
      admin.token,
      {},
    );
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.active).toBe(false);
    expect((await h.queue(officer.token)).status).toBe(401);
    const signIn = { username: officer.username, password: officer.password };
    expect((await h.signIn({ ...signIn, code: h.totp(officer.totpSecret) })).status).toBe(401);
    const enabled = await h.staffCall<StaffAdminRow>(
      'POST',
      `/api/staff/accounts/${officer.id}/enable`,
      admin.token,
      {},
    );
    expect(enabled.body.data.active).toBe(true);
    // The old session stays ended.
    expect((await h.queue(officer.token)).status).toBe(401);
    h.clock.advance({ minutes: 1 });
    expect((await h.signIn({ ...signIn, code: h.totp(officer.totpSecret) })).status).toBe(200);
    const rows = [...(await auditOf('staff.disable')), ...(await auditOf('staff.enable'))].filter(
      (r) => r.reference === `staff:${officer.id}`,
    );
    expect(rows.map((r) => [r.event, r.before, r.after])).toEqual([
      ['staff.disable', { active: true }, { active: false }],
      ['staff.enable', { active: false }, { active: true }],
    ]);
  });

  it('refuses disabling oneself and the last active admin', async () => {
    const self = await h.staffCall(
      'POST',
      `/api/staff/accounts/${admin.id}/disable?lang=tc`,
      admin.token,
      {},
    );
    expect(self.status).toBe(409);
    expect(self.body.meta.code).toBe('STAFF_SELF');
    expect(self.body.meta.message).toMatch(/不能停用自己的帳戶/);

    // Two admins disabling each other at once: one wins, the other is refused (the last active admin, or
    // its session ended meanwhile); an active admin is always left.
    const other = await h.staff('admin', 'sa.admin2');
    const [a, b] = await Promise.all([
      h.staffCall('POST', `/api/staff/accounts/${other.id}/disable`, admin.token, {}),
      h.staffCall('POST', `/api/staff/accounts/${admin.id}/disable`, other.token, {}),
    ]);
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    const loser = a.status === 200 ? b : a;
    expect([401, 409]).toContain(loser.status);
    if (loser.status === 409) expect(loser.body.meta.code).toBe('STAFF_LAST_ADMIN');
    const winner = a.status === 200 ? admin : other;
    const list = await h.staffCall<StaffAdminRow[]>('GET', '/api/staff/accounts', winner.token);
    expect(list.body.data.filter((r) => r.role === 'admin' && r.active)).toHaveLength(1);

    // The rule itself: the one active admin, disabled by an admin whose own account is off already.
    const service = createStaffAdminService({
      db: h.database.db,
      clock: h.clock,
      gate: { lockedUntil: () => Promise.resolve(null), unlock: () => Promise.resolve() } as never,
    });
    const loserId = winner.id === admin.id ? other.id : admin.id;
    const session = { id: 0, idleMinutes: 15, staff: { id: loserId, role: 'admin' } } as StaffSession;
    await expect(service.setActive(session, winner.id, false)).rejects.toMatchObject({
      status: 409,
      code: 'STAFF_LAST_ADMIN',
    });
    // Back as before: both admins active, `admin` signed in.
    await h.staffCall('POST', `/api/staff/accounts/${loserId}/enable`, winner.token, {});
    admin = await h.signInAgain(admin);
  });

  it('answers 404 for an unknown account and 400 for a malformed id', async () => {
    const unknown = await h.staffCall('POST', '/api/staff/accounts/999999/disable?lang=en', admin.token, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.meta.message).toMatch(/no staff account/);
    expect((await h.staffCall('POST', '/api/staff/accounts/abc/disable', admin.token, {})).status).toBe(400);
  });
});

describe('unlocking', () => {
  it('shows the lockout of decision 030 and clears it', async () => {
    const officer = await h.staff('caseOfficer', 'sa.locked');
    const wrong = { username: officer.username, password: 'not the password', code: '123456' };
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i += 1) expect((await h.signIn(wrong)).status).toBe(401);
    expect((await h.signIn(wrong)).status).toBe(429);
    const locked = await rowOf(officer.id);
    expect(locked.lockedUntil).not.toBeNull();
    expect(new Date(locked.lockedUntil ?? 0).getTime()).toBeGreaterThan(Date.now());
    const unlocked = await h.staffCall<StaffAdminRow>(
      'POST',
      `/api/staff/accounts/${officer.id}/unlock`,
      admin.token,
      {},
    );
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.data.lockedUntil).toBeNull();
    const signedIn = await h.signIn({
      username: officer.username,
      password: officer.password,
      code: h.totp(officer.totpSecret),
    });
    expect(signedIn.status).toBe(200);
    const [row] = (await auditOf('staff.unlock')).filter((r) => r.reference === `staff:${officer.id}`);
    expect(row?.before).toEqual({ lockedUntil: locked.lockedUntil });
    expect(row?.after).toEqual({ lockedUntil: null });
  });
});

describe('resetting the TOTP', () => {
  it('refuses the old TOTP and recovery codes, ends sessions, and lets the officer enrol a new one', async () => {
    const officer = await h.staff('caseOfficer', 'sa.reset');
    const reset = await h.staffCall<StaffTotpReset>(
      'POST',
      `/api/staff/accounts/${officer.id}/totp-reset`,
      admin.token,
      {},
    );
    expect(reset.status).toBe(200);
    expect(reset.body.data.account.totpPending).toBe(true);
    expect((await h.queue(officer.token)).status).toBe(401);
    const base = { username: officer.username, password: officer.password };
    expect((await h.signIn({ ...base, code: h.totp(officer.totpSecret) })).status).toBe(401);
    expect((await h.signIn({ ...base, code: officer.recoveryCodes[0] })).status).toBe(401);
    const signedIn = await h.signIn({ ...base, code: reset.body.data.enrolmentCode });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.totpPending).toBe(true);
    const [row] = (await auditOf('staff.totpReset')).filter((r) => r.reference === `staff:${officer.id}`);
    expect(row).toMatchObject({
      actorRef: `staff:${admin.id}`,
      after: { totpPending: true, sessionsEnded: true },
    });
  });

  it('answers 409 STAFF_NOT_PENDING to an enrolment with nothing to enrol', async () => {
    const officer = await h.staff('caseOfficer', 'sa.notpending');
    const answer = await h.staffCall('GET', '/api/staff/enrolment', officer.token);
    expect(answer.status).toBe(409);
    expect(answer.body.meta.code).toBe('STAFF_NOT_PENDING');
  });
});

describe('reassigning open cases', () => {
  it('moves the open cases to the colleague, leaves finished ones, audits each', async () => {
    const leaving = await h.staff('caseOfficer', 'sa.leaving');
    const colleague = await h.staff('caseOfficer', 'sa.colleague');
    const one = await h.submittedCase();
    const two = await h.submittedCase();
    const done = await h.submittedCase('CLOSED');
    for (const c of [one, two])
      await h.staffAct(leaving.token, c.applicationNo, 'case.assign', 'SUBMITTED', { staffId: leaving.id });
    await h.database.db.insert(caseAssignments).values({
      applicationId: done.id,
      staffId: leaving.id,
      assignedAt: h.clock.now(),
      assignedBy: leaving.id,
    });
    const moved = await h.staffCall<StaffReassigned>(
      'POST',
      `/api/staff/accounts/${leaving.id}/reassign`,
      admin.token,
      { toStaffId: colleague.id },
    );
    expect(moved.status).toBe(200);
    expect(moved.body.data.moved.sort()).toEqual([one.applicationNo, two.applicationNo].sort());
    expect(moved.body.data.skipped).toBe(0);
    const assignments = await h.database.db.select().from(caseAssignments);
    const staffOf = (id: number) => assignments.find((a) => a.applicationId === id)?.staffId;
    expect([staffOf(one.id), staffOf(two.id), staffOf(done.id)]).toEqual([
      colleague.id,
      colleague.id,
      leaving.id,
    ]);
    // The colleague now acts on them; the officer who left does not.
    expect((await h.view(colleague.token, one.applicationNo)).body.data.allowed).toContain('message.send');
    const rows = (await auditOf('case.reassign')).filter((r) => r.reference === `staff:${leaving.id}`);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      before: { assignedTo: leaving.id },
      after: { assignedTo: colleague.id },
    });
    // Again: nothing left to move.
    const again = await h.staffCall<StaffReassigned>(
      'POST',
      `/api/staff/accounts/${leaving.id}/reassign`,
      admin.token,
      { toStaffId: colleague.id },
    );
    expect(again.body.data).toEqual({ moved: [], skipped: 0 });
  });

  it('refuses a colleague who is not an active officer, and a malformed body', async () => {
    const leaving = await h.staff('caseOfficer', 'sa.leaving2');
    const gone = await h.staff('caseOfficer', 'sa.gone');
    await h.staffCall('POST', `/api/staff/accounts/${gone.id}/disable`, admin.token, {});
    for (const toStaffId of [gone.id, leaving.id, admin.id, 999999]) {
      const refused = await h.staffCall(
        'POST',
        `/api/staff/accounts/${leaving.id}/reassign?lang=en`,
        admin.token,
        {
          toStaffId,
        },
      );
      expect(refused.status).toBe(409);
      expect(refused.body.meta.code).toBe('STAFF_REASSIGN_TARGET');
    }
    const bad = await h.staffCall('POST', `/api/staff/accounts/${leaving.id}/reassign`, admin.token, {
      toStaffId: 'x',
    });
    expect(bad.status).toBe(400);
  });
});

describe('only an admin', () => {
  it('answers 403 to other roles and 401 without a session on every endpoint', async () => {
    const officer = await h.staff('caseOfficer', 'sa.nosy');
    const senior = await h.staff('seniorOfficer', 'sa.nosy.senior');
    const calls: [string, string, unknown][] = [
      ['GET', '/api/staff/accounts', undefined],
      ['POST', '/api/staff/accounts', {}],
      ['POST', `/api/staff/accounts/${officer.id}/disable`, {}],
      ['POST', `/api/staff/accounts/${officer.id}/enable`, {}],
      ['POST', `/api/staff/accounts/${officer.id}/unlock`, {}],
      ['POST', `/api/staff/accounts/${officer.id}/totp-reset`, {}],
      ['POST', `/api/staff/accounts/${officer.id}/reassign`, { toStaffId: senior.id }],
    ];
    for (const [method, path, body] of calls) {
      for (const caller of [officer, senior])
        expect((await h.staffCall(method as 'GET', path, caller.token, body)).status).toBe(403);
      expect((await h.staffCall(method as 'GET', path, undefined, body)).status).toBe(401);
    }
    const me = await h.staffCall<StaffMe>('GET', '/api/staff/session', officer.token);
    expect(me.body.data.totpPending).toBe(false);
  });
});
