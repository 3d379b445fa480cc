import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseUploadData, CaseUploadListData } from '../../machines/rules/case';
import { landscapeA4 } from '../support/pdf-corpus';
import { newKey } from './application-harness';
import { actSigned } from './case-signing-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';

/**
 * Submit Revised Layout Plan / Supporting Document (issue 11): the files waiting for their follow-up
 * (GET /api/cases/current/uploads), a revised layout plan with its revision label (required, limited), its
 * own history row type, and the latest layout plans marked current on the case. Real Postgres.
 */
let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

const UPLOADS = '/api/cases/current/uploads';

async function uploaded(token: string, name = 'plan.pdf'): Promise<number> {
  const form = new FormData();
  form.append('documentType', 'supportingDocument');
  form.append('file', new Blob([(await landscapeA4()).slice()], { type: 'application/pdf' }), name);
  const res = await h.call<CaseUploadData>('POST', UPLOADS, { token, body: form });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const plan = (revision?: string) => ({
  documentType: 'layoutPlans',
  ...(revision === undefined ? {} : { revision }),
});

describe('the files waiting for their follow-up', () => {
  it('lists them oldest first with the limits; a submitted file is no longer waiting', async () => {
    const c = await h.loggedInCase();
    const empty = await h.call<CaseUploadListData>('GET', UPLOADS, { token: c.token });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ uploads: [], limits: h.limits });

    const first = await uploaded(c.token, 'first.pdf');
    const second = await uploaded(c.token, 'second.pdf');
    const listed = await h.call<CaseUploadListData>('GET', UPLOADS, { token: c.token });
    expect(listed.body.data.uploads.map((u) => [u.id, u.fileName, u.pageCount])).toEqual([
      [first, 'first.pdf', 1],
      [second, 'second.pdf', 1],
    ]);

    const res = await actSigned(h, c.token, 'submitDocument', {
      answers: { documentType: 'other', description: 'Annex' },
      uploads: [first],
    });
    expect(res.status).toBe(200);
    const after = await h.call<CaseUploadListData>('GET', UPLOADS, { token: c.token });
    expect(after.body.data.uploads.map((u) => u.id)).toEqual([second]);
  });

  it("never lists another case's files, and needs a session", async () => {
    const mine = await h.loggedInCase();
    const theirs = await h.loggedInCase();
    await uploaded(theirs.token);
    const listed = await h.call<CaseUploadListData>('GET', UPLOADS, { token: mine.token });
    expect(listed.body.data.uploads).toEqual([]);
    expect((await h.call('GET', UPLOADS, { token: 'nope' })).status).toBe(401);
  });
});

describe('a revised layout plan', () => {
  it('needs its revision label, within 20 characters, with the message in the request language', async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const id = await uploaded(c.token);
    const missing = await h.act(c.token, 'submitDocument', plan(), {
      lang: 'tc',
      rawBody: { answers: plan(), uploads: [id] },
    });
    expect(missing.status).toBe(400);
    const errors = (missing.body.data as unknown as { errors: { path: string; message: string }[] }).errors;
    expect(errors.map((e) => e.path)).toContain('answers.revision');
    expect(errors.find((e) => e.path === 'answers.revision')?.message).toMatch(/[\u4e00-\u9fff]/);
    const long = await h.act(c.token, 'submitDocument', plan('R'.repeat(21)), {
      rawBody: { answers: plan('R'.repeat(21)), uploads: [id] },
    });
    expect(long.status).toBe(400);
  });

  it('is a LAYOUT_PLAN row with its revision; each revision kept, the latest current, earlier ones downloadable', async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const b = await actSigned(h, c.token, 'submitDocument', {
      answers: plan('B'),
      uploads: [await uploaded(c.token, 'plan-b.pdf')],
    });
    expect(b.status).toBe(200);
    const c2 = await actSigned(
      h,
      c.token,
      'submitDocument',
      { answers: plan('C'), uploads: [await uploaded(c.token, 'plan-c.pdf')] },
      { key: newKey() },
    );
    expect(c2.status).toBe(200);
    // A supporting document after it does not make the plans less current.
    const other = await actSigned(h, c.token, 'submitDocument', {
      answers: { documentType: 'other', description: 'Fire certificate' },
      uploads: [await uploaded(c.token, 'fire.pdf')],
    });
    expect(other.status).toBe(200);

    const data = (await h.current(c.token)).body.data;
    const plans = data.history.filter((r) => r.documentType === 'LAYOUT_PLAN');
    expect(plans.map((r) => [r.reference, r.revision])).toEqual([
      [c2.body.data.reference, 'C'],
      [b.body.data.reference, 'B'],
    ]);
    expect(plans.map((r) => r.documents.map((d) => [d.fileName, d.kind, d.current, d.downloadable]))).toEqual(
      [[['plan-c.pdf', 'layoutPlans', true, true]], [['plan-b.pdf', 'layoutPlans', false, true]]],
    );
    const support = data.history.find((r) => r.reference === other.body.data.reference);
    expect(support?.documentType).toBe('SUPPORTING_DOCUMENT');
    expect(support?.revision).toBeNull();
    expect(support?.documents[0]?.current).toBeUndefined();
    const earlier = await h.download(`/api/cases/current/documents/${plans[1]!.documents[0]!.id}`, c.token);
    expect(earlier.status).toBe(200);
    // Each is acknowledged as what it is.
    await h.messages.settled();
    const subjects = h.smtp.mails.filter((m) => m.to.includes(c.email.toLowerCase())).map((m) => m.subject);
    expect(subjects.filter((m) => m === `Revised layout plan received: ${c.applicationNo}`)).toHaveLength(2);
    expect(subjects.filter((m) => m === `Documents received: ${c.applicationNo}`)).toHaveLength(1);
  });
});
