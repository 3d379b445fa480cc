import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OFFICER_DIGEST_JOB } from '../../api/modules/console/officer-digest';
import { caseAssignments, informationRequests, staffAccounts } from '../../drizzle/schema';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import type { NoticesData } from '../../machines/rules/staff-inbox';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * The officer's inbox (docs/decisions/039-officer-inbox.md): the "New activity" marker per officer, the
 * inbox tabs on the work queue, the notices of one's own cases, and the digest email (a durable job, at
 * most once per OFFICER_DIGEST_MINUTES per officer, in the officer's language).
 */
let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsoleHarness();
});

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  // Past the last digest's interval (60 minutes, the default), so each test starts a window of its own.
  h.clock.advance({ hours: 2 });
});

const db = () => h.database.db;

async function assign(applicationId: number, officer: StaffUser) {
  await db()
    .insert(caseAssignments)
    .values({ applicationId, staffId: officer.id, assignedAt: h.clock.now(), assignedBy: officer.id })
    .onConflictDoUpdate({
      target: caseAssignments.applicationId,
      set: { staffId: officer.id, assignedAt: h.clock.now() },
    });
}

/** A case the applicant is logged in to, assigned to `officer`. */
async function caseOf(officer: StaffUser, status: CaseStatus = 'LOR_ISSUED') {
  const c = await h.loggedInCase(status, 'en');
  await assign(c.id, officer);
  h.clock.advance({ minutes: 1 });
  return c;
}

const message = (token: string, body: string) =>
  h.call('POST', '/api/cases/current/messages', { token, body: { body } });

async function rowOf(officer: StaffUser, applicationNo: string, tab = '') {
  const reply = await h.queue(officer.token, `?applicationNo=${applicationNo}${tab ? `&tab=${tab}` : ''}`);
  expect(reply.status).toBe(200);
  return reply.body.data.cases.find((r) => r.applicationNo === applicationNo);
}

const notices = (officer: StaffUser) => h.staffCall<NoticesData>('GET', '/api/staff/notices', officer.token);

describe('"New activity" on the work queue, per officer', () => {
  it('is set by the applicant acting, cleared for the officer who opens the case, and kept for another', async () => {
    const mine = await h.staff('caseOfficer', 'inbox.mine');
    const other = await h.staff('caseOfficer', 'inbox.other');
    const c = await caseOf(mine);
    expect((await h.view(mine.token, c.applicationNo)).status).toBe(200);
    expect((await h.view(other.token, c.applicationNo)).status).toBe(200);
    expect((await rowOf(mine, c.applicationNo))?.activity).toEqual([]);
    expect((await rowOf(other, c.applicationNo))?.activity).toEqual([]);

    h.clock.advance({ minutes: 5 });
    expect((await message(c.token, 'When will the inspection be?')).status).toBe(200);
    h.clock.advance({ minutes: 1 });
    expect((await h.act(c.token, 'requestForInspection', h.inspectionAnswers())).status).toBe(200);

    // Newest first: the inspection request, then the message.
    expect((await rowOf(mine, c.applicationNo))?.activity).toEqual(['inspection', 'message']);
    expect((await rowOf(other, c.applicationNo))?.activity).toEqual(['inspection', 'message']);

    h.clock.advance({ minutes: 1 });
    expect((await h.view(mine.token, c.applicationNo)).status).toBe(200);
    expect((await rowOf(mine, c.applicationNo))?.activity).toEqual([]);
    // The other officer has not opened it since: their marker stays.
    expect((await rowOf(other, c.applicationNo))?.activity).toEqual(['inspection', 'message']);

    // The department's own message is no activity of the applicant.
    h.clock.advance({ minutes: 1 });
    const sent = await h.staffAct(mine.token, c.applicationNo, 'message.send', 'INSPECTION_REQUESTED', {
      body: 'We will write with the date.',
    });
    expect(sent.status).toBe(200);
    expect((await rowOf(mine, c.applicationNo))?.activity).toEqual([]);

    // A withdrawal after the officer looked is new again, named as such.
    h.clock.advance({ minutes: 1 });
    const wd = await h.act(c.token, 'withdrawApplication', { reason: 'Moving away.', confirm: true });
    expect(wd.status).toBe(200);
    expect((await rowOf(mine, c.applicationNo))?.activity).toEqual(['withdrawn']);
  });

  it('counts an AP acting on the case', async () => {
    const mine = await h.staff('caseOfficer', 'inbox.ap');
    const c = await caseOf(mine);
    await h.view(mine.token, c.applicationNo);
    h.clock.advance({ minutes: 1 });
    const ap = await h.sessionOn(c.id, 'ap');
    expect((await message(ap, 'The AP will attend the inspection.')).status).toBe(200);
    expect((await rowOf(mine, c.applicationNo))?.activity).toEqual(['message']);
  });
});

describe('the inbox tabs', () => {
  it('lists only my cases: to handle, mine, waiting for the applicant, done', async () => {
    const me = await h.staff('caseOfficer', 'inbox.tabs');
    const someone = await h.staff('caseOfficer', 'inbox.tabs.other');
    const handle = await caseOf(me, 'UNDER_EXAMINATION');
    const waiting = await caseOf(me, 'LOR_ISSUED');
    await db()
      .insert(informationRequests)
      .values({
        applicationId: waiting.id,
        staffId: me.id,
        documentTypes: ['layoutPlans'],
        replyBy: '2099-01-01',
        createdAt: h.clock.now(),
      });
    const done = await caseOf(me, 'WITHDRAWN');
    const theirs = await caseOf(someone, 'UNDER_EXAMINATION');
    const tab = async (name: string) => {
      const reply = await h.queue(me.token, `?tab=${name}`);
      expect(reply.status).toBe(200);
      return reply.body.data.cases.map((r) => r.applicationNo);
    };
    const handleList = await tab('handle');
    const mineList = await tab('mine');
    const waitingList = await tab('waiting');
    const doneList = await tab('done');
    expect(handleList).toContain(handle.applicationNo);
    expect(handleList).not.toContain(waiting.applicationNo);
    expect(mineList).toEqual(expect.arrayContaining([handle.applicationNo, waiting.applicationNo]));
    expect(mineList).not.toContain(done.applicationNo);
    expect(waitingList).toEqual([waiting.applicationNo]);
    expect(doneList).toEqual([done.applicationNo]);
    for (const list of [handleList, mineList, waitingList, doneList])
      expect(list).not.toContain(theirs.applicationNo);
    expect((await h.queue(me.token, '?tab=everything')).status).toBe(400);
  });
});

describe('notices', () => {
  it("lists what happened on the officer's own cases, counts the unread, and marks them read up to what was shown", async () => {
    const me = await h.staff('caseOfficer', 'inbox.notices');
    const someone = await h.staff('caseOfficer', 'inbox.notices.other');
    const c = await caseOf(me);
    const theirs = await caseOf(someone);
    expect((await message(c.token, 'First question')).status).toBe(200);
    expect((await message(theirs.token, 'Not for you')).status).toBe(200);
    h.clock.advance({ minutes: 1 });
    expect((await h.act(c.token, 'requestForInspection', h.inspectionAnswers())).status).toBe(200);

    const first = await notices(me);
    expect(first.status).toBe(200);
    expect(first.body.data.unread).toBe(2);
    expect(first.body.data.notices.map((n) => [n.applicationNo, n.kind, n.by, n.unread])).toEqual([
      [c.applicationNo, 'inspection', 'APPLICANT', true],
      [c.applicationNo, 'message', 'APPLICANT', true],
    ]);
    expect((await notices(someone)).body.data.notices.map((n) => n.applicationNo)).toEqual([
      theirs.applicationNo,
    ]);

    // Read up to the newest shown; a later one stays unread.
    const shown = first.body.data.notices[0]!.at;
    h.clock.advance({ minutes: 1 });
    expect((await message(c.token, 'Second question')).status).toBe(200);
    const read = await h.staffCall<NoticesData>('POST', '/api/staff/notices/read', me.token, {
      through: shown,
    });
    expect(read.status).toBe(200);
    expect(read.body.data.unread).toBe(1);
    expect(read.body.data.notices.map((n) => n.unread)).toEqual([true, false, false]);
    // The other officer's notices are theirs.
    expect((await notices(someone)).body.data.unread).toBe(1);
  });

  it('refuses a malformed read with 400 in the envelope', async () => {
    const me = await h.staff('caseOfficer', 'inbox.notices.bad');
    for (const body of [{}, { through: 'yesterday' }, { through: '2026-01-01T00:00:00Z', extra: 1 }, []]) {
      const reply = await h.staffCall('POST', '/api/staff/notices/read', me.token, body);
      expect(reply.status).toBe(400);
    }
  });
});

describe('the digest email', () => {
  async function mailsTo(address: string, before: number) {
    await h.messages.settled();
    return h.smtp.mails.slice(before).filter((m) => m.to.includes(address));
  }
  const scan = () => h.jobs.runNow(OFFICER_DIGEST_JOB);

  it("sends one email listing the cases, in the officer's language, none to another officer, none twice", async () => {
    const me = await h.staff('caseOfficer', 'inbox.digest');
    const idle = await h.staff('caseOfficer', 'inbox.digest.idle');
    await db().update(staffAccounts).set({ language: 'tc' }).where(eq(staffAccounts.id, me.id));
    const first = await caseOf(me);
    const second = await caseOf(me);
    await h.view(idle.token, first.applicationNo);
    const before = h.smtp.mails.length;

    expect((await message(first.token, '請問何時巡查？')).status).toBe(200);
    h.clock.advance({ minutes: 2 });
    expect((await h.act(first.token, 'requestForInspection', h.inspectionAnswers())).status).toBe(200);
    h.clock.advance({ minutes: 2 });
    const wd = await h.act(second.token, 'withdrawApplication', { reason: 'Moving away.', confirm: true });
    expect(wd.status).toBe(200);

    await scan();
    await scan();
    const mine = await mailsTo(`inbox.digest@bd.gov.hk`, before);
    expect(mine).toHaveLength(1);
    const mail = mine[0]!;
    expect(mail.subject).toBe('屋宇署 – 你負責的 2 宗個案有新動態');
    expect(mail.text).toContain(`申請 ${first.applicationNo}：訊息、已要求巡查`);
    expect(mail.text).toContain(`申請 ${second.applicationNo}：已撤回`);
    expect(mail.text).toContain('屋宇署\n此訊息由系統自動發出，請勿回覆。');
    expect(await mailsTo('inbox.digest.idle@bd.gov.hk', before)).toEqual([]);

    // More within the hour waits for the next window: one more email then, listing only what is new.
    h.clock.advance({ minutes: 10 });
    const c3 = await caseOf(me);
    expect((await message(c3.token, 'A third case')).status).toBe(200);
    await scan();
    expect(await mailsTo(`inbox.digest@bd.gov.hk`, before)).toHaveLength(1);
    h.clock.advance({ minutes: 60 });
    await scan();
    await scan();
    const all = await mailsTo(`inbox.digest@bd.gov.hk`, before);
    expect(all).toHaveLength(2);
    expect(all[1]!.subject).toBe('屋宇署 – 你負責的 1 宗個案有新動態');
    expect(all[1]!.text).toContain(`申請 ${c3.applicationNo}：訊息`);
    expect(all[1]!.text).not.toContain(first.applicationNo);
  });

  it('writes in English for an officer who reads English', async () => {
    const me = await h.staff('caseOfficer', 'inbox.digest.en');
    const c = await caseOf(me);
    const before = h.smtp.mails.length;
    h.clock.advance({ minutes: 1 });
    expect((await message(c.token, 'Hello')).status).toBe(200);
    await scan();
    const mails = await mailsTo('inbox.digest.en@bd.gov.hk', before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Buildings Department – new activity on 1 of your cases');
    expect(mails[0]!.text).toContain(`Dear Officer inbox.digest.en,`);
    expect(mails[0]!.text).toContain(`• Application ${c.applicationNo}: Message`);
    expect(mails[0]!.text).toContain('Buildings Department\nThis message was sent automatically.');
  });
});

describe("the officer's language", () => {
  it('is set when the admin makes the account (English when not given); another language is a 400', async () => {
    const admin = await h.staff('admin', 'inbox.admin');
    const body = (username: string, language?: unknown) => ({
      username,
      role: 'caseOfficer',
      nameEn: 'LEUNG Ka Ho',
      nameZh: '梁家豪',
      postEn: 'Building Surveyor',
      postZh: '屋宇測量師',
      telephone: '2626 1616',
      email: `${username}@bd.gov.hk`,
      ...(language === undefined ? {} : { language }),
    });
    const languageOf = async (username: string) =>
      (await db().select().from(staffAccounts).where(eq(staffAccounts.username, username)))[0]?.language;
    expect(
      (await h.staffCall('POST', '/api/staff/accounts', admin.token, body('inbox.lang.sc', 'sc'))).status,
    ).toBe(201);
    expect(await languageOf('inbox.lang.sc')).toBe('sc');
    expect(
      (await h.staffCall('POST', '/api/staff/accounts', admin.token, body('inbox.lang.none'))).status,
    ).toBe(201);
    expect(await languageOf('inbox.lang.none')).toBe('en');
    const bad = await h.staffCall('POST', '/api/staff/accounts', admin.token, body('inbox.lang.fr', 'fr'));
    expect(bad.status).toBe(400);
    expect(await languageOf('inbox.lang.fr')).toBeUndefined();
  });
});
