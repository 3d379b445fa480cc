import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { purgeExpiredDrafts } from '../../api/modules/applications/drafts-purge';
import { MAINTENANCE_JOBS } from '../../api/jobs/maintenance';
import { draftValidityDaysFromEnv } from '../../api/modules/applications/drafts.service';
import { draftTokens, drafts, otpChallenges } from '../../drizzle/schema';
import type { DraftSavedData } from '../../machines/rules/drafts';
import { type DraftHarness, startDraftHarness } from './drafts-harness';

let h: DraftHarness;

beforeAll(async () => {
  h = await startDraftHarness();
});

afterAll(async () => {
  await h?.close();
});

const save = (no: string, token: string, version: number) =>
  h.saveDraft<DraftSavedData>(no, token, { version, answers: { v: version }, step: 1 });

const EXPIRED_14 =
  'This saved application has expired: saved applications are kept for 14 days after the last save. Please start a new application.';

describe('a draft’s validity of 14 days after the last save', () => {
  it('still saves 13 days after the last save', async () => {
    const draft = await h.createDraft();
    h.clock.advance({ hours: 13 * 24 });

    const res = await save(draft.applicationNo, draft.token, 1);

    expect(res.status).toBe(200);
  });

  it('answers 410 DRAFT_EXPIRED with a clear message 15 days after the last save, to a save and a read', async () => {
    const draft = await h.createDraft();
    h.clock.advance({ hours: 15 * 24 });

    const saved = await save(draft.applicationNo, draft.token, 1);
    const read = await h.getDraft(draft.applicationNo, draft.token);

    expect(saved.status).toBe(410);
    expect(saved.body).toEqual({ meta: { code: 'DRAFT_EXPIRED', message: EXPIRED_14 }, data: null });
    expect(read.status).toBe(410);
    expect(read.body).toEqual(saved.body);
  });

  it('counts the 14 days from the last save, not from creation', async () => {
    const draft = await h.createDraft();
    h.clock.advance({ hours: 10 * 24 });
    await save(draft.applicationNo, draft.token, 1);
    h.clock.advance({ hours: 10 * 24 });

    const res = await save(draft.applicationNo, draft.token, 2);

    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(3);
  });

  it('expires at the exact moment given by validUntil', async () => {
    const draft = await h.createDraft();
    h.clock.advance({ hours: 14 * 24 });

    const res = await h.getDraft(draft.applicationNo, draft.token);

    expect(h.clock.now().toISOString()).toBe(draft.validUntil);
    expect(res.status).toBe(410);
  });

  it('writes the expiry message in Traditional Chinese for a Hong Kong browser', async () => {
    const draft = await h.createDraft();
    h.clock.advance({ hours: 15 * 24 });

    const res = await h.getDraft(draft.applicationNo, draft.token, { 'accept-language': 'zh-HK,zh;q=0.9' });

    expect(res.body.meta.message).toBe(
      '此已儲存的申請已過期：已儲存的申請會在最後一次儲存後保留 14 日。請重新開始申請。',
    );
  });

  it('refuses another draft’s number with 403 even when the token’s own draft has expired', async () => {
    const expired = await h.createDraft();
    const other = await h.createDraft();
    h.clock.advance({ hours: 15 * 24 });

    const res = await h.getDraft(other.applicationNo, expired.token);

    expect(res.status).toBe(403);
  });
});

describe('DRAFT_VALIDITY_DAYS=7 (the spec’s other reading)', () => {
  let seven: DraftHarness;

  beforeAll(async () => {
    seven = await startDraftHarness({ draftValidityDays: '7' });
  });

  afterAll(async () => {
    await seven?.close();
  });

  it('keeps a draft 7 days after the last save: 6 days saves, 8 days answers 410 saying 7 days', async () => {
    const createdAt = seven.clock.now().getTime();
    const draft = await seven.createDraft();
    seven.clock.advance({ hours: 6 * 24 });
    const early = await seven.saveDraft(draft.applicationNo, draft.token, {
      version: 1,
      answers: {},
      step: 2,
    });
    seven.clock.advance({ hours: 8 * 24 });
    const late = await seven.getDraft(draft.applicationNo, draft.token);

    expect(new Date(draft.validUntil).getTime()).toBe(createdAt + 7 * 24 * 3600 * 1000);
    expect(early.status).toBe(200);
    expect(late.status).toBe(410);
    expect(late.body.meta.message).toContain('kept for 7 days after the last save');
  });

  it('reads the variable strictly: a whole number of days from 1 to 365, 14 when unset', () => {
    expect(draftValidityDaysFromEnv({})).toBe(14);
    expect(draftValidityDaysFromEnv({ DRAFT_VALIDITY_DAYS: '7' })).toBe(7);
    expect(() => draftValidityDaysFromEnv({ DRAFT_VALIDITY_DAYS: 'seven' })).toThrow(/DRAFT_VALIDITY_DAYS/);
    expect(() => draftValidityDaysFromEnv({ DRAFT_VALIDITY_DAYS: '0' })).toThrow(/DRAFT_VALIDITY_DAYS/);
    expect(() => draftValidityDaysFromEnv({ DRAFT_VALIDITY_DAYS: '1.5' })).toThrow(/DRAFT_VALIDITY_DAYS/);
  });
});

describe('purging expired drafts', () => {
  async function exists(applicationNo: string): Promise<boolean> {
    const rows = await h.database.db
      .select({ id: drafts.id })
      .from(drafts)
      .where(eq(drafts.applicationNo, applicationNo));
    return rows.length === 1;
  }

  it('removes expired drafts with their tokens and codes, and only those', async () => {
    const stale = await h.createDraft({ formKey: 'a2', answers: { applicantEmail: 'stale@example.hk' } });
    const fresh = await h.createDraft();
    await h.request('POST', '/api/drafts/resume/send', {
      body: { applicationNo: stale.applicationNo, contact: 'stale@example.hk' },
    });
    await h.messages.settled();
    h.clock.advance({ hours: 10 * 24 });
    await save(fresh.applicationNo, fresh.token, 1);
    h.clock.advance({ hours: 5 * 24 });

    const purged = await purgeExpiredDrafts(h.database.db, h.clock.now());
    const [tokens] = await h.database.db.select({ n: count() }).from(draftTokens);
    const [codes] = await h.database.db
      .select({ n: count() })
      .from(otpChallenges)
      .where(eq(otpChallenges.purpose, 'resume'));

    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await exists(stale.applicationNo)).toBe(false);
    expect(await exists(fresh.applicationNo)).toBe(true);
    expect((await h.getDraft(fresh.applicationNo, fresh.token)).status).toBe(200);
    expect((await h.getDraft(stale.applicationNo, stale.token)).status).toBe(401);
    expect(tokens?.n).toBeGreaterThanOrEqual(1);
    expect(codes?.n).toBe(0);
  });

  it('keeps a draft whose validity ends after now, even by a millisecond', async () => {
    const draft = await h.createDraft();

    await purgeExpiredDrafts(h.database.db, new Date(new Date(draft.validUntil).getTime() - 1));

    expect(await exists(draft.applicationNo)).toBe(true);
  });

  it('is a job of the queue that runs hourly, once across processes', async () => {
    const draft = await h.createDraft();
    h.clock.advance({ hours: 15 * 24 });

    await h.jobs.runNow(MAINTENANCE_JOBS.purge);

    expect(await exists(draft.applicationNo)).toBe(false);
  });
});
