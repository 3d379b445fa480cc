import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage, newStorageKey } from '../../api/adapters/storage';
import { createJobQueue } from '../../api/jobs/queue';
import { MAINTENANCE_JOBS, defineMaintenanceJobs } from '../../api/jobs/maintenance';
import { draftDocuments, drafts, otpChallenges, outbox, sessions } from '../../drizzle/schema';
import { silent } from '../support/login';
import { type DraftHarness, startDraftHarness } from './drafts-harness';
import { formatHkDate } from '../../machines/rules/dates';

/**
 * The scheduled jobs (api/jobs/maintenance.ts), run as the queue runs them: purges, the file sweep and
 * the reminder 3 days before a saved application expires.
 */
let h: DraftHarness;
let storageDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'bd-maintenance-'));
  h = await startDraftHarness({
    login: { app: { documents: { storage: createLocalStorage(storageDir) } } },
  });
});

afterAll(async () => {
  await h?.close();
  await rm(storageDir, { recursive: true, force: true });
});

beforeEach(() => {
  h.clock.advance({ hours: 2 });
});

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(h.clock.now().getTime() - ms);

describe('purge.expired', () => {
  it('deletes one-time codes, sessions and outbox rows past their keeping time, and keeps the live ones', async () => {
    const app = await h.addApplication();
    const code = (expiresAt: Date) => ({
      keyHash: `k-${expiresAt.getTime()}`,
      applicationKeyHash: 'a',
      purpose: 'login',
      codeHash: 'c',
      createdAt: expiresAt,
      expiresAt,
    });
    const [oldCode, liveCode] = await h.database.db
      .insert(otpChallenges)
      .values([code(ago(48 * HOUR)), code(ago(-10 * 60_000))])
      .returning({ id: otpChallenges.id });
    const session = (absoluteExpiresAt: Date, n: number) => ({
      tokenHash: `t-${n}-${absoluteExpiresAt.getTime()}`,
      applicationId: app.id,
      role: 'applicant',
      createdAt: ago(72 * HOUR),
      lastSeenAt: ago(72 * HOUR),
      idleMinutes: 15,
      absoluteExpiresAt,
    });
    const [oldSession, liveSession] = await h.database.db
      .insert(sessions)
      .values([session(ago(48 * HOUR), 1), session(ago(-HOUR), 2)])
      .returning({ id: sessions.id });
    const message = (createdAt: Date) => ({
      channel: 'email',
      toAddress: 'purge@example.hk',
      body: 'x',
      language: 'en',
      transport: 'outbox',
      createdAt,
    });
    const [oldMessage, newMessage] = await h.database.db
      .insert(outbox)
      .values([message(ago(31 * 24 * HOUR)), message(ago(HOUR))])
      .returning({ id: outbox.id });

    await h.jobs.runNow(MAINTENANCE_JOBS.purge);

    const codes = await h.database.db.select({ id: otpChallenges.id }).from(otpChallenges);
    const kept = await h.database.db.select({ id: sessions.id }).from(sessions);
    const rows = await h.database.db.select({ id: outbox.id }).from(outbox);
    expect(codes.map((r) => r.id)).toContain(liveCode?.id);
    expect(codes.map((r) => r.id)).not.toContain(oldCode?.id);
    expect(kept.map((r) => r.id)).toContain(liveSession?.id);
    expect(kept.map((r) => r.id)).not.toContain(oldSession?.id);
    expect(rows.map((r) => r.id)).toContain(newMessage?.id);
    expect(rows.map((r) => r.id)).not.toContain(oldMessage?.id);
  });
});

describe('sweep.files', () => {
  it('removes files no row names and .part files once older than an hour, and nothing else', async () => {
    const draft = await h.createDraft();
    const named = newStorageKey();
    const [row] = await h.database.db
      .select()
      .from(drafts)
      .where(eq(drafts.applicationNo, draft.applicationNo));
    await h.database.db.insert(draftDocuments).values({
      draftId: row?.id ?? 0,
      documentType: 'layoutPlan',
      storageKey: named,
      originalName: 'a.pdf',
      bytes: 4,
      sha256: '0'.repeat(64),
      pageCount: 1,
      createdAt: h.clock.now(),
    });
    const oldOrphan = newStorageKey();
    const newOrphan = newStorageKey();
    const oldPart = `${newStorageKey()}.0123456789ab.part`;
    const newPart = `${newStorageKey()}.ba9876543210.part`;
    const files = {
      [named]: 2,
      [oldOrphan]: 2,
      [newOrphan]: 0.25,
      [oldPart]: 2,
      [newPart]: 0.25,
      'notes.txt': 5,
    };
    for (const [name, hours] of Object.entries(files)) {
      const file = path.join(storageDir, name);
      await writeFile(file, 'data');
      const at = ago(hours * HOUR);
      await utimes(file, at, at);
    }

    await h.jobs.runNow(MAINTENANCE_JOBS.sweep);

    expect((await readdir(storageDir)).sort()).toEqual([named, newOrphan, newPart, 'notes.txt'].sort());
  });
});

describe('remind.scan and remind.draft', () => {
  async function savedDraft(
    lang: 'en' | 'tc',
    contact: { applicantEmail?: string; applicantMobile?: string },
  ) {
    const answers = { applicantNameEn: 'CHAN Tai Man', ...contact };
    return h.createDraft({ formKey: 'a2', answers, step: 1, lang });
  }

  it('reminds by email in English 3 days before a saved application expires, with the date, once', async () => {
    const email = `remind.${process.pid}@example.hk`;
    const draft = await savedDraft('en', { applicantEmail: email });
    const before = h.smtp.mails.length;

    h.clock.advance({ hours: 10 * 24 }); // 4 days left: not yet
    await h.jobs.runNow(MAINTENANCE_JOBS.remindScan);
    await h.messages.settled();
    const early = h.smtp.mails.slice(before).filter((m) => m.to.includes(email));
    h.clock.advance({ hours: 24 + 1 }); // under 3 days left
    await h.jobs.runNow(MAINTENANCE_JOBS.remindScan);
    await h.jobs.runNow(MAINTENANCE_JOBS.remindScan);
    await waitForMail(email, before);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const mails = h.smtp.mails.slice(before).filter((m) => m.to.includes(email));

    expect(early).toEqual([]);
    expect(mails).toHaveLength(1);
    // Hong Kong time, in the draft's language (machines/rules/dates.ts).
    const shown = formatHkDate(draft.validUntil, 'en', true);
    expect(mails[0]?.subject).toBe(`Your saved application ${draft.applicationNo} expires on ${shown}`);
    expect(mails[0]?.text).toContain(`will expire on ${shown} (Hong Kong time)`);
  });

  it('reminds by SMS in Traditional Chinese when the draft has only a mobile', async () => {
    const mobile = '61239876';
    const draft = await savedDraft('tc', { applicantMobile: mobile });
    h.clock.advance({ hours: 11 * 24 + 1 });

    await h.jobs.runNow(MAINTENANCE_JOBS.remindScan);
    const until = Date.now() + 15_000;
    while (!h.sms.some((m) => m.to === `+852${mobile}`) && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));

    const sms = h.sms.find((m) => m.to === `+852${mobile}`);
    expect(sms?.text).toContain(`屋宇署：你儲存的申請 ${draft.applicationNo} 將於`);
    expect(sms?.text).toContain('（香港時間）失效');
  });

  it('queues a reminder once when two processes scan at the same moment', async () => {
    const email = `remind.race.${process.pid}@example.hk`;
    await savedDraft('en', { applicantEmail: email });
    h.clock.advance({ hours: 11 * 24 + 1 });
    const before = h.smtp.mails.length;
    const other = createJobQueue(h.database, { logger: silent, workers: false });
    defineMaintenanceJobs(other, {
      db: h.database.db,
      clock: h.clock,
      logger: silent,
      storage: createLocalStorage(storageDir),
      messages: h.messages,
      schedule: false,
    });
    try {
      await Promise.all([
        h.jobs.runNow(MAINTENANCE_JOBS.remindScan),
        other.runNow(MAINTENANCE_JOBS.remindScan),
      ]);
      await waitForMail(email, before);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(h.smtp.mails.slice(before).filter((m) => m.to.includes(email))).toHaveLength(1);
    } finally {
      await other.stop(1_000);
    }
  });
});

async function waitForMail(email: string, after: number): Promise<void> {
  const until = Date.now() + 15_000;
  while (!h.smtp.mails.slice(after).some((m) => m.to.includes(email))) {
    if (Date.now() > until) throw new Error(`no mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
