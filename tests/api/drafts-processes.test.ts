import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import { purgeExpiredDrafts } from '../../api/modules/applications/drafts-purge';
import { drafts } from '../../drizzle/schema';
import type { DraftSavedData } from '../../machines/rules/drafts';
import { type EnvelopeBody, type TestServer, listen } from '../support/http';
import { TEST_OTP_SECRET } from '../support/login';
import { type DraftHarness, startDraftHarness } from './drafts-harness';

/**
 * Two API processes over one database (two apps, each with its own memory), as behind a load
 * balancer: what one process remembers about a token must never let it act on stale facts.
 */
let h: DraftHarness;
let other: TestServer;

beforeAll(async () => {
  h = await startDraftHarness();
  other = await listen(
    createApp({
      db: h.database,
      logger: pino({ level: 'silent' }),
      clock: h.clock,
      auth: { otpSecret: TEST_OTP_SECRET, minSendDurationMs: 0 },
    }),
  );
});

afterAll(async () => {
  await other?.close();
  await h?.close();
});

async function onOther<T = unknown>(
  method: 'GET' | 'PUT',
  applicationNo: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: EnvelopeBody<T> }> {
  const response = await fetch(`${other.baseUrl}/api/drafts/${applicationNo}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as EnvelopeBody<T> };
}

describe('drafts served by two processes', () => {
  it('refuses, on one process, a version the other process has already moved on from', async () => {
    const draft = await h.createDraft();
    await onOther('GET', draft.applicationNo, draft.token);
    await h.saveDraft(draft.applicationNo, draft.token, { version: 1, answers: { by: 'first' }, step: 2 });

    const res = await onOther('PUT', draft.applicationNo, draft.token, {
      version: 1,
      answers: {},
      step: 2,
    });

    expect(res.status).toBe(409);
    expect(res.body.data).toMatchObject({ currentVersion: 2 });
  });

  it('sees a validity the other process extended, after the first one it knew has passed', async () => {
    const draft = await h.createDraft();
    await onOther('GET', draft.applicationNo, draft.token);
    h.clock.advance({ hours: 10 * 24 });
    await h.saveDraft(draft.applicationNo, draft.token, { version: 1, answers: {}, step: 2 });
    h.clock.advance({ hours: 10 * 24 });

    const res = await onOther<DraftSavedData>('PUT', draft.applicationNo, draft.token, {
      version: 2,
      answers: {},
      step: 2,
    });

    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(3);
  });

  it('refuses to save a draft that was submitted meanwhile', async () => {
    const draft = await h.createDraft();
    await onOther('GET', draft.applicationNo, draft.token);
    await h.database.db
      .update(drafts)
      .set({ submittedAt: h.clock.now() })
      .where(eq(drafts.applicationNo, draft.applicationNo));

    const res = await onOther('PUT', draft.applicationNo, draft.token, {
      version: 1,
      answers: {},
      step: 2,
    });

    expect(res.status).toBe(409);
    expect(res.body.meta.code).toBe('DRAFT_SUBMITTED');
  });

  it('answers 401 for a draft purged meanwhile', async () => {
    const draft = await h.createDraft();
    await onOther('GET', draft.applicationNo, draft.token);
    h.clock.advance({ hours: 15 * 24 });
    await purgeExpiredDrafts(h.database.db, h.clock.now());

    const res = await onOther('PUT', draft.applicationNo, draft.token, {
      version: 1,
      answers: {},
      step: 2,
    });

    expect(res.status).toBe(401);
  });
});
