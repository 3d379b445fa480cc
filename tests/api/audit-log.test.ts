import { spawnSync } from 'node:child_process';
import { asc, eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit } from '../../api/modules/shared/audit';
import { verifyAuditChain } from '../../api/modules/shared/audit-chain';
import { auditEvents } from '../../drizzle/schema';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';
import { draftPath, type Reply } from './application-harness';
import { codeIn } from '../support/login';
import { landscapeA4 } from '../support/pdf-corpus';

/**
 * The audit log (docs/decisions/033-audit-log.md): every kind of action recorded with who, what, when,
 * from where and the request's id, and ids only; one hash chain under parallel appends, that
 * `npm run audit:verify` checks; and the application's role cannot change the log, on PGlite and Postgres.
 */

let h: ConsoleHarness;
let officer: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'audit.officer');
});

afterAll(async () => {
  await h?.close();
});

type AuditRow = typeof auditEvents.$inferSelect;

const requestIdOf = (reply: { headers: Headers }) => reply.headers.get('x-request-id') ?? '';

/** The rows the request of `reply` wrote. */
async function rowsOf(reply: { headers: Headers }): Promise<AuditRow[]> {
  const id = requestIdOf(reply);
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return h.database.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.requestId, id))
    .orderBy(asc(auditEvents.id));
}

/** The one row of `event` the request wrote, checked for its address and UTC time. */
async function rowOf(reply: { headers: Headers }, event: string): Promise<AuditRow> {
  const rows = (await rowsOf(reply)).filter((r) => r.event === event);
  expect(rows, `${event} rows of request ${requestIdOf(reply)}`).toHaveLength(1);
  const row = rows[0]!;
  expect(row.address).toMatch(/127\.0\.0\.1|::1/);
  expect(row.at.toISOString()).toBe(h.clock.now().toISOString());
  return row;
}

/** The SQLSTATE a statement fails with (Drizzle wraps the driver's error as its cause). */
async function sqlState(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const e = error as { code?: string; cause?: { code?: string } };
    return e.cause?.code ?? e.code ?? 'no code';
  }
  return 'succeeded';
}

describe('what the audit log records', () => {
  it('records an applicant login: the code sent, a wrong code, the login and the logout', async () => {
    const app = await h.addApplication({ applicantNameEn: 'CHAN Tai Man' });
    const sent = await h.send({ applicationNo: app.applicationNo, contact: app.email });
    expect(sent.status).toBe(200);
    expect(await rowOf(sent, 'otp.send')).toMatchObject({
      actor: 'anonymous',
      actorRef: 'anonymous',
      applicationId: app.id,
      after: { outcome: 'ok' },
    });
    const wrong = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: '000000' });
    expect(wrong.status).toBe(422);
    expect(await rowOf(wrong, 'auth.login')).toMatchObject({
      actor: 'anonymous',
      applicationId: app.id,
      after: { outcome: 'refused', code: 'OTP_WRONG' },
    });
    await h.messages.settled();
    const code = codeIn(h.smtp.mails.find((m) => m.to.includes(app.email))?.text ?? '');
    const login = (await h.verify({ applicationNo: app.applicationNo, contact: app.email, code })) as Reply<{
      token: string;
    }>;
    expect(login.status).toBe(200);
    const made = await rowOf(login, 'auth.login');
    expect(made).toMatchObject({ actor: 'applicant', applicationId: app.id, after: { outcome: 'ok' } });
    expect(made.actorRef).toMatch(/^session:\d+$/);
    const out = await h.post('/api/auth/logout', login.body.data.token);
    expect(await rowOf(out, 'auth.logout')).toMatchObject({ actor: 'applicant', actorRef: made.actorRef });
    await expectNoPersonalData([app.email, app.mobile, 'CHAN Tai Man']);
  });

  it('records uploads accepted and refused, signing started and completed, submission and downloads', async () => {
    const draft = await h.readyDraft();
    const [first] = draft.documents;
    const accepted = await h.upload(draft, first!.documentType, await landscapeA4());
    expect(accepted.status).toBe(201);
    expect(await rowOf(accepted, 'document.upload')).toMatchObject({
      actor: 'applicant',
      actorRef: expect.stringMatching(/^draft:\d+$/) as string,
      reference: draft.applicationNo,
      after: { outcome: 'ok', documentType: first!.documentType },
    });
    const refused = await h.upload(draft, first!.documentType, new TextEncoder().encode('not a pdf'));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await rowOf(refused, 'document.upload')).after).toMatchObject({ outcome: 'refused' });

    const started = await h.call<{ requestId: string; digest: string }>(
      'POST',
      `${draftPath(draft.applicationNo)}/signing/iamsmart`,
      { token: draft.token, body: {} },
    );
    expect(started.status).toBe(201);
    expect((await rowOf(started, 'signing.start')).after).toEqual({ outcome: 'ok', method: 'iamsmart' });
    await h.phone(started.body.data.digest, 'approve');
    const status = await h.iamSmartStatus(draft, started.body.data.requestId);
    expect(status.body.data.status).toBe('signed');
    expect((await rowOf(status, 'signing.complete')).after).toMatchObject({ outcome: 'ok', code: 'signed' });
    const again = await h.iamSmartStatus(draft, started.body.data.requestId);
    expect(await rowsOf(again)).toEqual([]);

    const submitted = await h.submit(draft);
    expect(submitted.status).toBe(200);
    const submission = await rowOf(submitted, 'application.submit');
    expect(submission).toMatchObject({ actor: 'applicant', reference: draft.applicationNo });
    expect(submission.applicationId).toEqual(expect.any(Number));

    const file = await h.download(
      `${draftPath(draft.applicationNo)}/submission/files/application`,
      draft.token,
    );
    expect(file.status).toBe(200);
    expect(await rowOf(file, 'document.download')).toMatchObject({
      applicationId: submission.applicationId,
      after: { outcome: 'ok', file: 'application' },
    });
    // Every answer that names or reaches a person: emails, mobiles, names, identity numbers.
    const personal = Object.entries(draft.answers)
      .filter(([key, value]) => /email|mobile|name|hkic|telephone/i.test(key) && typeof value === 'string')
      .map(([, value]) => value as string)
      .filter((value) => value.length >= 6);
    expect(personal.length).toBeGreaterThan(2);
    await expectNoPersonalData(personal);
  });

  it('records staff sign-in and its failure, a view of personal data, a case action and the sign-out', async () => {
    const failed = await h.signIn({ username: 'audit.officer', password: 'wrong password!', code: '000000' });
    expect(failed.status).toBe(401);
    expect(await rowOf(failed, 'staff.signIn')).toMatchObject({
      actor: 'anonymous',
      actorRef: 'anonymous',
      after: { outcome: 'refused', code: 'STAFF_SIGN_IN_FAILED' },
    });
    const signedIn = await h.signIn({
      username: 'audit.officer',
      password: officer.password,
      code: h.totp(officer.totpSecret),
    });
    expect(signedIn.status).toBe(200);
    expect(await rowOf(signedIn, 'staff.signIn')).toMatchObject({
      actor: 'caseOfficer',
      actorRef: `staff:${officer.id}`,
    });
    const token = /bd_staff=([^;]*)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1] ?? '';

    const app = await h.submittedCase();
    const view = await h.view(token, app.applicationNo);
    expect(view.status).toBe(200);
    expect(await rowOf(view, 'case.viewPersonalData')).toMatchObject({
      actor: 'caseOfficer',
      actorRef: `staff:${officer.id}`,
      applicationId: app.id,
    });
    const assigned = await h.staffAct(token, app.applicationNo, 'case.assign', 'SUBMITTED', {
      staffId: officer.id,
    });
    expect(assigned.status).toBe(200);
    expect(await rowOf(assigned, 'case.assign')).toMatchObject({
      actor: 'caseOfficer',
      actorRef: `staff:${officer.id}`,
      applicationId: app.id,
    });
    const out = await h.staffCall('DELETE', '/api/staff/session', token);
    expect(await rowOf(out, 'staff.signOut')).toMatchObject({ actorRef: `staff:${officer.id}` });

    // The console shows the request id beside the address.
    const audit = await h.staffCall<{ event: string; requestId: string }[]>(
      'GET',
      `/api/staff/audit?applicationNo=${app.applicationNo}`,
      (await h.staff('admin')).token,
    );
    expect(audit.body.data.map((r) => [r.event, r.requestId])).toEqual(
      expect.arrayContaining([['case.viewPersonalData', requestIdOf(view)]]),
    );
  });
});

/** No row of the log holds any of `values` (emails, mobiles, HKICs, names). */
async function expectNoPersonalData(values: string[]) {
  const rows = await h.database.db.select().from(auditEvents);
  const text = JSON.stringify(rows).toLowerCase();
  for (const value of values) expect(text).not.toContain(value.toLowerCase());
}

describe("the audit log's protection", () => {
  it('runs the application as bd_app, which may read and append but not change the log', async () => {
    const db = h.database.db;
    expect(JSON.stringify(await db.execute(sql`select current_user`))).toContain('"current_user":"bd_app"');
    const refusals = {
      update: await sqlState(
        db.execute(sql`update audit_events set address = '10.0.0.1', application_id = null`),
      ),
      delete: await sqlState(db.execute(sql`delete from audit_events`)),
      truncate: await sqlState(db.execute(sql`truncate audit_events`)),
      insert: await sqlState(
        db.execute(
          sql`insert into audit_events (at, actor, actor_ref, event, hash) values (now(), 'a', 'a', 'a', 'x')`,
        ),
      ),
      disableTrigger: await sqlState(
        db.execute(sql`alter table audit_events disable trigger audit_events_no_update`),
      ),
      dropTrigger: await sqlState(db.execute(sql`drop trigger audit_events_no_update on audit_events`)),
      setval: await sqlState(db.execute(sql`select setval('audit_events_id_seq', 1)`)),
    };
    console.log(`audit log refusals on ${h.database.kind}: ${JSON.stringify(refusals)}`);
    expect(refusals).toEqual({
      update: '42501',
      delete: '42501',
      truncate: '42501',
      insert: '42501',
      disableTrigger: '42501',
      dropTrigger: '42501',
      setval: '42501',
    });
    expect(await sqlState(db.select().from(auditEvents).limit(1))).toBe('succeeded');
  });

  it('keeps one chain under parallel appends, and the check names the first row tampered with', async () => {
    const app = await h.addApplication();
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) =>
        h.database.db.transaction((tx) =>
          appendAudit(tx, {
            at: h.clock.now(),
            actor: 'system',
            actorRef: 'system',
            event: 'test.parallel',
            reference: `p${i}`,
          }),
        ),
      ),
      ...Array.from({ length: 6 }, () => h.send({ applicationNo: app.applicationNo, contact: app.email })),
    ]);
    const before = await verifyAuditChain(h.database.db);
    console.log(`audit chain on ${h.database.kind} before tampering: ${JSON.stringify(before)}`);
    expect(before).toMatchObject({ ok: true });

    const [victim] = await h.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'test.parallel'))
      .orderBy(asc(auditEvents.id))
      .limit(1);
    await asSuperuser(`
      alter table audit_events disable trigger audit_events_no_update;
      update audit_events set address = '10.9.9.9' where id = ${victim!.id};
      alter table audit_events enable trigger audit_events_no_update;`);
    const after = await verifyAuditChain(h.database.db);
    console.log(
      `audit chain on ${h.database.kind} after tampering with row ${victim!.id}: ${JSON.stringify(after)}`,
    );
    expect(after).toMatchObject({ ok: false, brokenAt: victim!.id, reason: 'hash' });

    if (h.database.url) {
      // The command an operator runs: exit code 1 naming the row.
      const run = spawnSync('npx', ['tsx', 'scripts/audit-verify.ts'], {
        env: { ...process.env, DATABASE_URL: h.database.url },
        encoding: 'utf8',
      });
      expect(run.stdout).toContain(`BROKEN at row id ${victim!.id}`);
      expect(run.status).toBe(1);
    }
  });
});

/** Runs `statements` as the superuser the tests connect as: what an attacker with the owner's rights does. */
async function asSuperuser(statements: string) {
  if (h.database.url) {
    const admin = postgres(h.database.url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(statements);
    } finally {
      await admin.end();
    }
    return;
  }
  // PGlite: one session, whose login user is the superuser; the app's role comes back after.
  if (h.database.connection?.kind !== 'pglite') throw new Error('no way to the database as its superuser');
  await h.database.connection.client.exec(`reset role; ${statements} set role bd_app;`);
}
