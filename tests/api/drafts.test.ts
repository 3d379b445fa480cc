import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { draftTokens, drafts } from '../../drizzle/schema';
import type { DraftData, DraftSavedData, DraftStaleData } from '../../machines/rules/drafts';
import { type DraftHarness, startDraftHarness } from './drafts-harness';

let h: DraftHarness;

beforeAll(async () => {
  h = await startDraftHarness();
});

afterAll(async () => {
  await h?.close();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const answers = { applicantNameEn: 'CHAN Tai Man', applicantEmail: 'chan.tai.man@example.hk' };

describe('POST /api/drafts', () => {
  it('issues an application number of the form code, the year and a 6-digit sequence, with version 1 and a token', async () => {
    const now = h.clock.now();

    const res = await h.request<Record<string, unknown>>('POST', '/api/drafts', { body: { formKey: 'a2' } });

    expect(res.status).toBe(201);
    expect(res.body.meta).toEqual({ code: '200', message: 'Your application has been saved.' });
    expect(res.body.data).toEqual({
      applicationNo: expect.stringMatching(/^A2-2026-[0-9]{6}$/) as unknown,
      version: 1,
      validUntil: new Date(now.getTime() + 14 * DAY_MS).toISOString(),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown,
    });
  });

  it('numbers every form from one sequence, with the form’s own code in front', async () => {
    const first = await h.createDraft({ formKey: 'a2' });
    const second = await h.createDraft({ formKey: 'cccaiC2' });
    const third = await h.createDraft({ formKey: 'edbJokc02' });

    const sequence = (no: string) => Number(no.split('-').at(-1));
    expect(second.applicationNo).toMatch(/^CCCAI-C2-2026-[0-9]{6}$/);
    expect(third.applicationNo).toMatch(/^EDB-JOKC02-2026-[0-9]{6}$/);
    expect(sequence(second.applicationNo)).toBe(sequence(first.applicationNo) + 1);
    expect(sequence(third.applicationNo)).toBe(sequence(first.applicationNo) + 2);
  });

  it('keeps only the SHA-256 of the token', async () => {
    const draft = await h.createDraft();

    const rows = await h.database.db
      .select({ tokenHash: draftTokens.tokenHash })
      .from(draftTokens)
      .innerJoin(drafts, eq(drafts.id, draftTokens.draftId))
      .where(eq(drafts.applicationNo, draft.applicationNo));

    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.tokenHash).not.toContain(draft.token);
  });

  it('stores the answers and the step given at creation, as a JSON object', async () => {
    const draft = await h.createDraft({ formKey: 'b2', answers, step: 1 });

    const res = await h.getDraft<DraftData>(draft.applicationNo, draft.token);
    const [stored] = await h.database.db
      .select({ type: sql<string>`jsonb_typeof(${drafts.answers})` })
      .from(drafts)
      .where(eq(drafts.applicationNo, draft.applicationNo));

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ formKey: 'b2', answers, step: 1, version: 1 });
    expect(stored?.type).toBe('object');
  });

  it('answers an unknown form with 400 and a field error', async () => {
    const res = await h.request('POST', '/api/drafts', { body: { formKey: 'z9' } });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      meta: { code: 'BAD_REQUEST', message: 'There is no such application form.' },
      data: { errors: [{ path: 'formKey', message: 'There is no such application form.' }] },
    });
  });
});

describe('GET /api/drafts/:applicationNo', () => {
  it('answers the draft with its answers, step, version and validity', async () => {
    const draft = await h.createDraft({ formKey: 'c2', answers, step: 1 });

    const res = await h.getDraft<DraftData>(draft.applicationNo, draft.token);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      applicationNo: draft.applicationNo,
      formKey: 'c2',
      answers,
      step: 1,
      version: 1,
      validUntil: draft.validUntil,
      updatedAt: h.clock.now().toISOString(),
      verifiedContacts: {},
      submittedAt: null,
    });
  });

  it('tells a submitted draft by when it was submitted, so that a reloaded tab starts a new form (decision 027)', async () => {
    const draft = await h.createDraft({ formKey: 'a2', answers, step: 3 });
    const at = new Date(h.clock.now().getTime() + 60_000);
    await h.database.db
      .update(drafts)
      .set({ submittedAt: at })
      .where(eq(drafts.applicationNo, draft.applicationNo));

    const res = await h.getDraft<DraftData>(draft.applicationNo, draft.token);
    const save = await h.saveDraft(draft.applicationNo, draft.token, { version: 1, answers, step: 3 });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      applicationNo: draft.applicationNo,
      step: 3,
      submittedAt: at.toISOString(),
    });
    expect(save.status).toBe(409);
    expect(save.body.meta).toMatchObject({ code: 'DRAFT_SUBMITTED' });
  });

  it('accepts the number however it is written (lower case, full width)', async () => {
    const draft = await h.createDraft();

    const res = await h.getDraft(draft.applicationNo.toLowerCase(), draft.token);

    expect(res.status).toBe(200);
  });
});

describe('PUT /api/drafts/:applicationNo', () => {
  it('saves over the current version and answers the next one, valid 14 days from this save', async () => {
    const draft = await h.createDraft({ formKey: 'a2', answers, step: 1 });
    h.clock.advance({ hours: 3 });

    const res = await h.saveDraft<DraftSavedData>(draft.applicationNo, draft.token, {
      version: 1,
      answers: { ...answers, schoolNameEn: 'Harbour View School' },
      step: 3,
    });
    const stored = await h.getDraft<DraftData>(draft.applicationNo, draft.token);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      meta: { code: '200', message: 'Your application has been saved.' },
      data: { version: 2, validUntil: new Date(h.clock.now().getTime() + 14 * DAY_MS).toISOString() },
    });
    expect(stored.body.data).toMatchObject({
      version: 2,
      step: 3,
      answers: { ...answers, schoolNameEn: 'Harbour View School' },
    });
  });

  it('answers a stale version with 409 DRAFT_STALE and the current version, and overwrites nothing', async () => {
    const draft = await h.createDraft({ formKey: 'a2', answers, step: 1 });
    await h.saveDraft(draft.applicationNo, draft.token, {
      version: 1,
      answers: { schoolNameEn: 'newer' },
      step: 1,
    });
    const savedAt = h.clock.now().toISOString();
    h.clock.advance({ minutes: 5 });

    const stale = await h.saveDraft<DraftStaleData>(draft.applicationNo, draft.token, {
      version: 1,
      answers: { schoolNameEn: 'older' },
      step: 3,
    });
    const stored = await h.getDraft<DraftData>(draft.applicationNo, draft.token);

    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      meta: {
        code: 'DRAFT_STALE',
        message:
          'A newer copy of this application was saved somewhere else (in another window or on another device). Nothing has been overwritten: load the newer copy to continue.',
      },
      data: { currentVersion: 2, updatedAt: savedAt },
    });
    expect(stored.body.data).toMatchObject({
      version: 2,
      answers: { schoolNameEn: 'newer' },
      step: 1,
      updatedAt: savedAt,
    });
  });

  it('answers a version ahead of the stored one as stale too', async () => {
    const draft = await h.createDraft();

    const res = await h.saveDraft(draft.applicationNo, draft.token, {
      version: 7,
      answers: {},
      step: 1,
    });

    expect(res.status).toBe(409);
    expect(res.body.data).toEqual({ currentVersion: 1, updatedAt: h.clock.now().toISOString() });
  });

  it('lets exactly one of 20 parallel saves of the same version through', async () => {
    const draft = await h.createDraft();

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.saveDraft(draft.applicationNo, draft.token, {
          version: 1,
          answers: { studentCount: i + 1 },
          step: 1,
        }),
      ),
    );
    const stored = await h.getDraft<DraftData>(draft.applicationNo, draft.token);

    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const winner = results.findIndex((r) => r.status === 200);
    expect(stored.body.data).toMatchObject({ version: 2, answers: { studentCount: winner + 1 } });
  });

  it('writes the 409 message in the caller’s language', async () => {
    const draft = await h.createDraft();
    await h.saveDraft(draft.applicationNo, draft.token, { version: 1, answers: {}, step: 1 });

    const res = await h.saveDraft(
      draft.applicationNo,
      draft.token,
      { version: 1, answers: {}, step: 1 },
      { 'accept-language': 'zh-HK' },
    );

    expect(res.status).toBe(409);
    expect(res.body.meta.message).toBe(
      '此申請較新的版本已在其他地方（例如另一個視窗或裝置）儲存，系統沒有覆蓋任何內容。請載入較新的版本後再繼續。',
    );
  });

  it('takes the contact for resuming from the answers’ applicant email and mobile, normalised', async () => {
    const draft = await h.createDraft();

    await h.saveDraft(draft.applicationNo, draft.token, {
      version: 1,
      answers: { applicantEmail: ' Chan.Tai.Man@Example.HK ', applicantMobile: '+852 9123-4567' },
      step: 1,
    });
    const [row] = await h.database.db
      .select({ email: drafts.contactEmail, mobile: drafts.contactMobile })
      .from(drafts)
      .where(eq(drafts.applicationNo, draft.applicationNo));

    expect(row).toEqual({ email: 'chan.tai.man@example.hk', mobile: '91234567' });
  });
});

describe('one applicant cannot reach another’s draft', () => {
  it('refuses another draft’s token with 403, for reading and for saving, and changes nothing', async () => {
    const mine = await h.createDraft({ formKey: 'a2', answers });
    const theirs = await h.createDraft();

    const read = await h.getDraft(mine.applicationNo, theirs.token);
    const write = await h.saveDraft(mine.applicationNo, theirs.token, { version: 1, answers: {}, step: 2 });
    const stored = await h.getDraft<DraftData>(mine.applicationNo, mine.token);

    expect(read.status).toBe(403);
    expect(read.body).toEqual({
      meta: {
        code: 'FORBIDDEN',
        message:
          'You cannot open this saved application. Retrieve it with its application number and a one-time password.',
      },
      data: null,
    });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(read.body);
    expect(stored.body.data).toMatchObject({ version: 1, answers });
  });

  it('answers an unknown number exactly as another applicant’s, so a number’s existence does not show', async () => {
    const mine = await h.createDraft();
    const other = await h.createDraft();

    const foreign = await h.getDraft(other.applicationNo, mine.token);
    const unknown = await h.getDraft('A2-2026-999999', mine.token);
    const unknownSave = await h.saveDraft('A2-2026-999999', mine.token, {
      version: 1,
      answers: {},
      step: 2,
    });

    expect(unknown.status).toBe(403);
    expect(unknown.body).toEqual(foreign.body);
    expect(unknownSave.body).toEqual(foreign.body);
  });

  it('answers 401 without a token, or with one that opens nothing, whatever the number', async () => {
    const draft = await h.createDraft();

    const none = await h.getDraft(draft.applicationNo);
    const bogus = await h.getDraft(draft.applicationNo, 'x'.repeat(43));
    const malformed = await h.saveDraft(draft.applicationNo, 'not a token', {
      version: 1,
      answers: {},
      step: 2,
    });
    const unknownNumber = await h.getDraft('A2-2026-999999', 'x'.repeat(43));

    for (const res of [none, bogus, malformed, unknownNumber]) {
      expect(res.status).toBe(401);
      expect(res.body.meta.code).toBe('UNAUTHORIZED');
    }
    expect(unknownNumber.body).toEqual(bogus.body);
  });

  it('does not accept a login session token for a draft', async () => {
    const app = await h.addApplication();
    const session = await h.login(app.applicationNo, app.email);
    const draft = await h.createDraft();

    const res = await h.getDraft(draft.applicationNo, session.token);

    expect(res.status).toBe(401);
  });
});
