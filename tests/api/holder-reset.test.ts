import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffAccount, hashStaffToken } from '../../api/modules/auth/staff-auth';
import { hashToken } from '../../api/modules/auth/sessions';
import { appointments, auditEvents, registrationHolders, sessions } from '../../drizzle/schema';
import { staffSessions } from '../../drizzle/schema-staff';
import { PERMISSIONS } from '../../machines/rules/authorisation';
import type { AppointeeCase } from '../../machines/rules/appointment';
import type { StaffRole } from '../../machines/rules/staff';
import type { HolderResetResult, RegistrationHolderData } from '../../machines/rules/staff-holders';
import { type AppointmentHarness, startAppointmentHarness } from './appointments-harness';

/**
 * The department's reset of a registration holder (docs/decisions/025-registration-holders.md, "Reset";
 * docs/console.md, "Registered AP/RSE"): who may, what is refused and how, and what a reset does to the old
 * holder's login, the number's appointments and the next acceptance.
 */
let h: AppointmentHarness;
const tokens: Partial<Record<StaffRole, string>> = {};
const ids: Partial<Record<StaffRole, number>> = {};
let counter = 0;

async function staffOf(role: StaffRole): Promise<void> {
  counter += 1;
  const name = `holders.${role}.${process.pid}.${counter}`;
  const made = await createStaffAccount(h.database.db, {
    username: name,
    role,
    nameEn: `Officer ${role}`,
    nameZh: `${role}主任`,
    postEn: 'Building Surveyor',
    postZh: '屋宇測量師',
    telephone: '2626 1616',
    email: `${role}${counter}@bd.gov.hk`,
    password: `correct horse ${name}`,
  });
  ids[role] = made.id;
  await signIn(role);
}

/** A new session of the role's account at the harness clock's time (the staff idle timeout is short). */
async function signIn(role: StaffRole): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = h.clock.now();
  await h.database.db.insert(staffSessions).values({
    tokenHash: hashStaffToken(token),
    staffId: ids[role]!,
    createdAt: now,
    lastSeenAt: now,
    idleMinutes: 15,
    absoluteExpiresAt: new Date(now.getTime() + 10 * 3_600_000),
  });
  tokens[role] = token;
}

const lookup = (token: string | undefined, number: string, lang = 'en') =>
  h.call<RegistrationHolderData>(
    'GET',
    `/api/staff/holders?registrationNumber=${encodeURIComponent(number)}&lang=${lang}`,
    { headers: token ? { cookie: `bd_staff=${token}` } : {} },
  );
const reset = (token: string | undefined, body: unknown, lang = 'en') =>
  h.call<HolderResetResult>('POST', `/api/staff/holders/reset?lang=${lang}`, {
    body,
    headers: token ? { cookie: `bd_staff=${token}` } : {},
  });

const mailsTo = async (address: string, pattern: RegExp) => {
  await h.messages.settled();
  return h.smtp.mails.filter((m) => m.to.includes(address) && pattern.test(m.text));
};

/** A case whose AP accepted: the number now has a holder. */
async function heldNumber() {
  const c = await h.applicantCase();
  const { answers } = await h.appointed(c.token, 'ap');
  const number = answers.registrationNumber!;
  const [holder] = await h.database.db
    .select()
    .from(registrationHolders)
    .where(eq(registrationHolders.registrationNumber, number));
  return { c, answers, number, holder: holder! };
}

beforeAll(async () => {
  h = await startAppointmentHarness();
  await staffOf('caseOfficer');
  await staffOf('seniorOfficer');
  await staffOf('admin');
});

afterAll(async () => {
  await h?.close();
});

describe('who may look up and reset a holder (machines/rules/authorisation.ts, console.holders)', () => {
  async function applicantCookieless(): Promise<string> {
    const app = await h.addApplication({ status: 'SUBMITTED' });
    const token = randomBytes(32).toString('base64url');
    const now = h.clock.now();
    await h.database.db.insert(sessions).values({
      tokenHash: hashToken(token),
      applicationId: app.id,
      role: 'applicant',
      createdAt: now,
      lastSeenAt: now,
      idleMinutes: 30,
      absoluteExpiresAt: new Date(now.getTime() + 3_600_000),
    });
    return token;
  }

  const ROWS: [string, number, number][] = [
    ['none', 401, 401],
    ['applicant', 401, 401],
    ['caseOfficer', 403, 403],
    ['seniorOfficer', 200, 200],
    ['admin', 200, 200],
  ];
  it.each(ROWS)('%s: lookup %i, reset %i', async (caller, lookupStatus, resetStatus) => {
    const { number, holder } = await heldNumber();
    const body = { registrationNumber: number, holderId: holder.id, reason: 'Table of roles.' };
    let looked;
    let done;
    if (caller === 'applicant') {
      const bearer = await applicantCookieless();
      looked = await h.call('GET', `/api/staff/holders?registrationNumber=${encodeURIComponent(number)}`, {
        token: bearer,
      });
      done = await h.call('POST', '/api/staff/holders/reset', { token: bearer, body });
    } else {
      const token = caller === 'none' ? undefined : tokens[caller as StaffRole];
      looked = await lookup(token, number);
      done = await reset(token, body);
    }
    expect(looked.status).toBe(lookupStatus);
    expect(done.status).toBe(resetStatus);
    // The table and the endpoint agree.
    if (caller in tokens)
      expect(PERMISSIONS['console.holders'].includes(caller as StaffRole)).toBe(resetStatus === 200);
    const [row] = await h.database.db
      .select()
      .from(registrationHolders)
      .where(eq(registrationHolders.id, holder.id));
    expect(row?.endedAt === null).toBe(resetStatus !== 200);
  });
});

describe('looking a number up', () => {
  it('shows the holder with masked contacts, the signer kind and the cases it is appointed to', async () => {
    const { c, answers, number } = await heldNumber();
    // Typed as a person might: lower case, no space, full-width digits.
    const typed = number
      .toLowerCase()
      .replace(' ', '')
      .replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
    const reply = await lookup(tokens.seniorOfficer, typed);
    expect(reply.status).toBe(200);
    const data = reply.body.data;
    expect(data.registrationNumber).toBe(number);
    expect(data.holder).toMatchObject({ nameEn: answers.nameEn, signer: 'iamsmart' });
    expect(data.holder?.email).not.toBe(answers.email);
    expect(data.holder?.email).toMatch(/\*\*\*/);
    expect(data.holder?.mobile).toBe(`****${answers.mobile!.slice(-4)}`);
    expect(data.holder?.cases.map((x) => x.applicationNo)).toEqual([c.applicationNo]);
    expect(data.history).toEqual([]);
  });

  it.each([
    ['en', /registration number like AP\(A\) 1234/],
    ['tc', /[\u4e00-\u9fff]/],
    ['sc', /[\u4e00-\u9fff]/],
  ])('refuses what is not a registration number with 400 (%s)', async (lang, message) => {
    const reply = await lookup(tokens.admin, 'AP(Q) 12', lang);
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toMatch(message);
  });

  it.each([
    ['en', /holds nothing for this registration number/],
    ['tc', /屋宇署沒有此註冊編號的紀錄/],
    ['sc', /屋宇署没有此注册编号的记录/],
  ])('answers an unknown number with 404 (%s)', async (lang, message) => {
    const reply = await lookup(tokens.seniorOfficer, 'RSE 99998', lang);
    expect(reply.status).toBe(404);
    expect(reply.body.meta.message).toMatch(message);
  });
});

describe('the refusals of a reset', () => {
  it.each([
    ['en', 'Enter this answer.'],
    ['tc', '請填寫此項。'],
    ['sc', '请填写此项。'],
  ])('a reason is required (%s)', async (lang, message) => {
    const { number, holder } = await heldNumber();
    for (const reason of [undefined, '', '   ']) {
      const reply = await reset(
        tokens.seniorOfficer,
        { registrationNumber: number, holderId: holder.id, ...(reason === undefined ? {} : { reason }) },
        lang,
      );
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toContain(message);
    }
    const [row] = await h.database.db
      .select()
      .from(registrationHolders)
      .where(eq(registrationHolders.id, holder.id));
    expect(row?.endedAt).toBeNull();
  });

  it('a bad number or holder id is 400, an unknown number 404, never 500', async () => {
    const { holder } = await heldNumber();
    expect(
      (await reset(tokens.admin, { registrationNumber: 'XYZ', holderId: holder.id, reason: 'x' })).status,
    ).toBe(400);
    expect(
      (await reset(tokens.admin, { registrationNumber: 'RSE 99997', holderId: 'one', reason: 'x' })).status,
    ).toBe(400);
    expect((await reset(tokens.admin, ['not', 'an', 'object'])).status).toBe(400);
    const unknown = await reset(tokens.admin, { registrationNumber: 'RSE 99997', holderId: 1, reason: 'x' });
    expect(unknown.status).toBe(404);
  });

  it('the holder the officer saw must be the holder now (409 HOLDER_CHANGED), and a reset is done once (409 HOLDER_NONE)', async () => {
    const { number, holder } = await heldNumber();
    const other = await reset(tokens.seniorOfficer, {
      registrationNumber: number,
      holderId: holder.id + 100_000,
      reason: 'Wrong holder id.',
    });
    expect(other.status).toBe(409);
    expect(other.body.meta.code).toBe('HOLDER_CHANGED');
    const body = { registrationNumber: number, holderId: holder.id, reason: 'Established by a stranger.' };
    expect((await reset(tokens.seniorOfficer, body)).status).toBe(200);
    for (const [lang, message] of [
      ['en', /No one holds this registration number now/],
      ['tc', /此註冊編號現時沒有持有人/],
      ['sc', /此注册编号现时没有持有人/],
    ] as const) {
      const again = await reset(tokens.seniorOfficer, body, lang);
      expect(again.status).toBe(409);
      expect(again.body.meta.code).toBe('HOLDER_NONE');
      expect(again.body.meta.message).toMatch(message);
    }
  });

  it('two officers resetting at once: one reset, the other refused with 409', async () => {
    const { number, holder } = await heldNumber();
    const body = { registrationNumber: number, holderId: holder.id, reason: 'Both at once.' };
    const replies = await Promise.all([reset(tokens.seniorOfficer, body), reset(tokens.admin, body)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const audits = await h.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'holder.reset'), eq(auditEvents.reference, number)));
    expect(audits).toHaveLength(1);
  });
});

describe('what a reset does', () => {
  it('ends the holder, cuts the old login off every case, cancels open invitations, tells the old holder, and lets the next acceptance establish a new holder', async () => {
    const { c, answers, number, holder } = await heldNumber();
    // A second case invites the same number: the invitation goes to the holder's contacts.
    const other = await h.applicantCase();
    expect((await h.act(other.token, 'appointment', { ...answers, email: 'typed@example.com' })).status).toBe(
      200,
    );
    // The holder is logged in.
    h.clock.advance({ hours: 1 });
    const login = await h.appointeeLogin(number, answers.email!);
    expect((login.body.data.cases as AppointeeCase[]).map((x) => x.applicationNo)).toEqual([c.applicationNo]);
    const apToken = login.body.data.token;
    await h.database.db
      .update(registrationHolders)
      .set({ language: 'tc' })
      .where(eq(registrationHolders.id, holder.id));

    await signIn('seniorOfficer');
    await signIn('admin');
    const reason = 'The number was established by someone who does not hold it.';
    const done = await reset(tokens.seniorOfficer, {
      registrationNumber: number,
      holderId: holder.id,
      reason,
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      registrationNumber: number,
      unlinkedCases: 1,
      cancelledInvitations: 1,
    });

    // The holder row is kept, ended.
    const [ended] = await h.database.db
      .select()
      .from(registrationHolders)
      .where(eq(registrationHolders.id, holder.id));
    expect(ended).toMatchObject({ endedBy: ids.seniorOfficer, endReason: reason });
    expect(ended?.endedAt).toBeInstanceOf(Date);
    // The ACTIVE appointment stays, unlinked; the open invitation is cancelled.
    const rows = await h.database.db
      .select()
      .from(appointments)
      .where(eq(appointments.registrationNumber, number));
    expect(rows.find((r) => r.status === 'ACTIVE')?.holderId).toBeNull();
    expect(rows.find((r) => r.applicationId === other.id)).toMatchObject({
      status: 'CANCELLED',
      endReason: 'holderReset',
    });
    // The audit event names the officer, the reason and the number.
    const [audit] = await h.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'holder.reset'), eq(auditEvents.reference, number)));
    expect(audit).toMatchObject({ actor: 'seniorOfficer', actorRef: `staff:${ids.seniorOfficer}` });
    expect(audit?.after).toMatchObject({ reason });

    // The old holder is told, in Traditional Chinese and in English, by email and SMS.
    const notices = await mailsTo(answers.email!, /ended your record as the holder/);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('已在網站上結束你作為註冊編號');
    expect(
      h.sms.filter((s) => s.to.endsWith(answers.mobile!) && /持有人的紀錄已結束/.test(s.text)),
    ).toHaveLength(1);

    // The old session is ended, and the old holder's login gets no code and no case.
    expect((await h.call('GET', '/api/appointee/cases', { token: apToken })).status).toBe(401);
    const codesBefore = (await mailsTo(answers.email!, /log in/i)).length;
    h.clock.advance({ hours: 1 });
    const sent = await h.call('POST', '/api/auth/appointee/otp/send', {
      body: { registrationNumber: number, contact: answers.email },
    });
    expect(sent.status).toBe(200);
    expect(await mailsTo(answers.email!, /log in/i)).toHaveLength(codesBefore);

    // The lookup shows no holder and the reset as history.
    await signIn('admin');
    const after = await lookup(tokens.admin, number);
    expect(after.body.data.holder).toBeNull();
    expect(after.body.data.history).toHaveLength(1);
    expect(after.body.data.history[0]).toMatchObject({
      reason,
      endedBy: { nameEn: 'Officer seniorOfficer' },
    });

    // The next acceptance of the number, with other contacts, establishes a new holder.
    const next = await h.applicantCase();
    const fresh = { ...answers, email: `new-holder-${next.id}@example.com`, mobile: '98765432' };
    expect((await h.act(next.token, 'appointment', fresh)).status).toBe(200);
    const invitation = await h.invitationTo(fresh.email);
    expect((await h.confirm(invitation, fresh.email)).status).toBe(200);
    expect((await h.accept(invitation, await h.signIamSmart(invitation))).status).toBe(200);
    await signIn('admin');
    const current = await lookup(tokens.admin, number);
    expect(current.body.data.holder).toMatchObject({ nameEn: answers.nameEn });
    expect(current.body.data.holder?.id).not.toBe(holder.id);
    expect(current.body.data.holder?.cases.map((x) => x.applicationNo)).toEqual([next.applicationNo]);
    h.clock.advance({ hours: 1 });
    const newLogin = await h.appointeeLogin(number, fresh.email);
    expect((newLogin.body.data.cases as AppointeeCase[]).map((x) => x.applicationNo)).toEqual([
      next.applicationNo,
    ]);
    // ... and the old holder's contacts still get nothing.
    h.clock.advance({ hours: 1 });
    await h.call('POST', '/api/auth/appointee/otp/send', {
      body: { registrationNumber: number, contact: answers.email },
    });
    expect(await mailsTo(answers.email!, /log in/i)).toHaveLength(codesBefore);
  });
});
