import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccounts, staffRecoveryCodes } from '../../drizzle/schema-staff';
import { SIGN_IN_ATTEMPTS } from '../../machines/rules/staff-sign-in';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

let h: ConsoleHarness;
let officer: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'signin.officer');
});

afterAll(async () => {
  await h?.close();
});

const cookieOf = (setCookie: string | null) => /bd_staff=([^;]*)/.exec(setCookie ?? '')?.[1] ?? '';

describe('staff sign-in: argon2id password and TOTP (issue 17)', () => {
  it('signs in with the password and the current code; the cookie is HttpOnly and SameSite=Strict', async () => {
    const hash = (await h.database.db.select().from(staffAccounts).where(eq(staffAccounts.id, officer.id)))[0]
      ?.passwordHash;
    expect(hash).toMatch(/^\$argon2id\$/);
    const reply = await h.signIn({
      username: 'Signin.Officer',
      password: officer.password,
      code: h.totp(officer.totpSecret),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      username: 'signin.officer',
      role: 'caseOfficer',
      idleMinutes: 15,
    });
    const setCookie = reply.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/api\/staff/);
    const token = cookieOf(setCookie);
    expect((await h.staffCall('GET', '/api/staff/session', token)).status).toBe(200);
    // Signed out: the cookie opens nothing any more.
    expect((await h.staffCall('DELETE', '/api/staff/session', token)).status).toBe(200);
    expect((await h.staffCall('GET', '/api/staff/session', token)).status).toBe(401);
  });

  it('never accepts the same code twice (replay), and accepts a recovery code once', async () => {
    h.clock.advance({ seconds: 60 });
    const code = h.totp(officer.totpSecret);
    expect((await h.signIn({ username: officer.username, password: officer.password, code })).status).toBe(
      200,
    );
    expect((await h.signIn({ username: officer.username, password: officer.password, code })).status).toBe(
      401,
    );
    const recovery = officer.recoveryCodes[0]!;
    expect(
      (await h.signIn({ username: officer.username, password: officer.password, code: recovery })).status,
    ).toBe(200);
    expect(
      (await h.signIn({ username: officer.username, password: officer.password, code: recovery })).status,
    ).toBe(401);
  });

  it('keeps each recovery code as argon2id with a salt of its own, and lets two sign-ins racing with one code take it once', async () => {
    const rows = await h.database.db
      .select()
      .from(staffRecoveryCodes)
      .where(eq(staffRecoveryCodes.staffId, officer.id));
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row.codeHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const salts = new Set(rows.map((r) => r.codeHash.split('$')[4]));
    expect(salts.size).toBe(10);
    expect(
      rows.some((r) =>
        r.codeHash.includes(createHash('sha256').update(officer.recoveryCodes[1]!).digest('hex')),
      ),
    ).toBe(false);

    const body = { username: officer.username, password: officer.password, code: officer.recoveryCodes[1]! };
    const answers = await Promise.all([h.signIn(body), h.signIn(body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });

  it('still accepts a recovery code kept as SHA-256 before argon2, once, and a wrong password with it never', async () => {
    const user = await h.staff('caseOfficer', 'legacy.codes');
    const legacy = 'abcde-fghjk';
    await h.database.db
      .insert(staffRecoveryCodes)
      .values({ staffId: user.id, codeHash: createHash('sha256').update(legacy).digest('hex') });
    const body = { username: user.username, password: user.password, code: legacy.toUpperCase() };
    expect((await h.signIn({ ...body, password: 'not the password' })).status).toBe(401);
    expect((await h.signIn(body)).status).toBe(200);
    expect((await h.signIn(body)).status).toBe(401);
  });

  it('ends a session idle for longer than the timeout', async () => {
    h.clock.advance({ seconds: 60 });
    const reply = await h.signIn({
      username: officer.username,
      password: officer.password,
      code: h.totp(officer.totpSecret),
    });
    const token = cookieOf(reply.headers.get('set-cookie'));
    h.clock.advance({ minutes: 14 });
    expect((await h.staffCall('GET', '/api/staff/session', token)).status).toBe(200);
    h.clock.advance({ minutes: 16 });
    expect((await h.staffCall('GET', '/api/staff/session', token)).status).toBe(401);
  });

  it('answers a wrong password, a wrong code and an unknown name alike, counts them, then locks with Retry-After', async () => {
    const user = await h.staff('caseOfficer', 'lockout.officer');
    h.clock.advance({ seconds: 60 });
    const wrong = [
      { username: user.username, password: 'wrong password', code: h.totp(user.totpSecret) },
      { username: user.username, password: user.password, code: '000000' },
      { username: user.username, password: user.password, code: 'aaaaa-bbbbb' },
    ];
    const answers = [];
    for (const body of wrong) answers.push(await h.signIn(body));
    const unknown = await h.signIn({ username: 'nobody.here', password: 'x', code: '123456' });
    for (const a of [...answers, unknown]) {
      expect(a.status).toBe(401);
      expect(a.body.meta).toEqual(unknown.body.meta);
    }
    expect(unknown.body.meta.code).toBe('STAFF_SIGN_IN_FAILED');
    for (let i = wrong.length; i < SIGN_IN_ATTEMPTS; i++) expect((await h.signIn(wrong[0])).status).toBe(401);
    // Locked now, even with the right password and code.
    const locked = await h.signIn({
      username: user.username,
      password: user.password,
      code: h.totp(user.totpSecret),
    });
    expect(locked.status).toBe(429);
    expect(locked.body.meta.code).toBe('STAFF_LOCKED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not locked by it.
    h.clock.advance({ seconds: 60 });
    expect(
      (
        await h.signIn({
          username: officer.username,
          password: officer.password,
          code: h.totp(officer.totpSecret),
        })
      ).status,
    ).toBe(200);
  });

  it('answers malformed sign-in bodies with 400 in the caller language, never 500', async () => {
    for (const body of [
      {},
      { username: 'a', password: 'b', code: '12' },
      'text',
      { username: 1, password: [], code: null },
    ]) {
      const reply = await h.call('POST', '/api/staff/session?lang=tc', {
        body,
        headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      });
      expect([400, 415]).toContain(reply.status);
    }
    const reply = await h.call('POST', '/api/staff/session?lang=tc', { body: {} });
    expect(reply.body.meta.message).not.toMatch(/[A-Za-z]{4}/);
  });

  it('lets an admin set the staff idle timeout (master data), audited; new sessions take it', async () => {
    const admin = await h.staff('admin');
    const user = await h.staff('caseOfficer');
    expect(
      (await h.staffCall('PUT', '/api/staff/settings', user.token, { staffIdleMinutes: 5 })).status,
    ).toBe(403);
    expect(
      (await h.staffCall('PUT', '/api/staff/settings', admin.token, { staffIdleMinutes: 0 })).status,
    ).toBe(400);
    const set = await h.staffCall('PUT', '/api/staff/settings', admin.token, { staffIdleMinutes: 5 });
    expect(set.status).toBe(200);
    expect((await h.staffCall('GET', '/api/staff/settings', admin.token)).body.data).toEqual({
      staffIdleMinutes: 5,
    });
    h.clock.advance({ seconds: 60 });
    const reply = await h.signIn({
      username: user.username,
      password: user.password,
      code: h.totp(user.totpSecret),
    });
    expect(reply.body.data.idleMinutes).toBe(5);
    const accounts = await h.staffCall<{ username: string }[]>('GET', '/api/staff/accounts', admin.token);
    expect(accounts.body.data.map((a) => a.username)).toContain(user.username);
    const audit = await h.staffCall<{ event: string }[]>(
      'GET',
      '/api/staff/audit?event=settings.update',
      admin.token,
    );
    expect(audit.body.data).toHaveLength(1);
    await h.staffCall('PUT', '/api/staff/settings', admin.token, { staffIdleMinutes: 15 });
  });

  it('keeps staff and applicant sessions apart', async () => {
    const app = await h.loggedInCase('SUBMITTED');
    // An applicant's Bearer token opens no staff endpoint ...
    expect((await h.call('GET', '/api/staff/cases', { token: app.token })).status).toBe(401);
    expect((await h.call('GET', '/api/staff/session', { token: app.token })).status).toBe(401);
    // ... and a staff cookie opens no applicant endpoint.
    expect(
      (await h.call('GET', '/api/cases/current', { headers: { cookie: `bd_staff=${officer.token}` } }))
        .status,
    ).toBe(401);
    expect((await h.call('GET', '/api/cases/current', { token: officer.token })).status).toBe(401);
  });

  it('keeps the audit trail append-only in the database: an UPDATE and a DELETE are refused', async () => {
    const app = await h.submittedCase();
    const fresh = await h.staff('caseOfficer');
    expect(
      (await h.staffAct(fresh.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: fresh.id }))
        .status,
    ).toBe(200);
    const db = h.database.db;
    await expect(db.execute(sql`update audit_events set event = 'forged'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
    const rows = await db.execute(
      sql`select count(*)::int as n from audit_events where event = 'case.assign'`,
    );
    expect(JSON.stringify(rows)).toMatch(/"n":1/);
  });
});
