import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired, sweepFiles } from '../../api/jobs/maintenance';
import type { CaseUploadData } from '../../api/modules/cases/case-uploads';
import {
  caseActions,
  caseDocuments,
  caseUploads,
  informationRequests,
  staffAccounts,
} from '../../drizzle/schema';
import { bigPdf, landscapeA4, notPdf, portraitA4, uniqueLandscapeA4 } from '../support/pdf-corpus';
import { newKey } from './application-harness';
import { actSigned, signFollowUp } from './case-signing-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';

/**
 * Submit Supporting Document (issue 11): the case's uploads (POST/DELETE /api/cases/current/uploads)
 * refused exactly as the application's, the follow-up that carries them (signed first by iAM Smart in the
 * sandbox: tests/api/case-signing.test.ts), its history row and downloads, another case's file, parallel
 * submissions and an AP's session. Real Postgres, storage and PDF checks.
 */
let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

const UPLOADS = '/api/cases/current/uploads';

/** A file for the follow-up of the form's type `forType` ('other' unless said) and its request, if any. */
function upload(
  token: string,
  content: Uint8Array,
  documentType = 'supportingDocument',
  query = '',
  {
    forType = 'other',
    requestId,
    name = 'plan.pdf',
  }: { forType?: string; requestId?: number; name?: string } = {},
) {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('forType', forType);
  if (requestId !== undefined) form.append('requestId', String(requestId));
  form.append('file', new Blob([content.slice()], { type: 'application/pdf' }), name);
  return h.call<CaseUploadData>('POST', `${UPLOADS}${query}`, { token, body: form });
}

/** A file of its own content (never the same file as another) for the 'other' follow-up or `requestId`'s. */
async function uploaded(token: string, requestId?: number): Promise<number> {
  const res = await upload(token, await uniqueLandscapeA4(), 'supportingDocument', '', {
    ...(requestId === undefined ? {} : { requestId }),
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** Submits a supporting document, signed first by iAM Smart (when the signing accepts the files). */
const submit = (token: string, uploads: number[], key = newKey(), answers: Record<string, unknown> = {}) =>
  actSigned(
    h,
    token,
    'submitDocument',
    { answers: { documentType: 'other', description: 'Fire certificate', ...answers }, uploads },
    { key },
  );

describe('case uploads', () => {
  it('refuses what the application refuses, with the same messages, and keeps nothing', async () => {
    const c = await h.loggedInCase('SUBMITTED', 'en');
    const draft = await h.newDraft();
    for (const [bytes, query] of [
      [await portraitA4(), '?lang=tc'],
      [await notPdf(), '?lang=en'],
      [await bigPdf({ pages: 2, bytes: h.limits.maxFileBytes + 64 * 1024 }), '?lang=sc'],
    ] as const) {
      const ours = await upload(c.token, bytes, 'supportingDocument', query);
      const theirs = await h.upload(draft, 'layoutPlans', bytes, 'plan.pdf', query);
      expect(ours.status).toBe(theirs.status);
      expect(ours.body.meta.code).toBe(theirs.body.meta.code);
      expect(ours.body.meta.message).toBe(theirs.body.meta.message);
    }
    const unknown = await upload(c.token, await landscapeA4(), 'passport');
    expect(unknown.status).toBe(400);
    const rows = await h.database.db.select().from(caseUploads).where(eq(caseUploads.applicationId, c.id));
    expect(rows).toEqual([]);
  });

  it("counts the case's waiting files towards the total limit, as an application's documents", async () => {
    const c = await h.loggedInCase();
    expect((await upload(c.token, await bigPdf({ pages: 1, bytes: 200 * 1024 }))).status).toBe(201);
    const second = await upload(c.token, await bigPdf({ pages: 1, bytes: 200 * 1024 }));
    expect(second.status).toBe(413);
    expect(second.body.data).toMatchObject({ limit: 'total' });
    const rows = await h.database.db.select().from(caseUploads).where(eq(caseUploads.applicationId, c.id));
    expect(rows.length).toBe(1);
  });

  it('takes at most 20 files in one follow-up: the 21st is refused (409) in en, sc and tc, and nothing of it kept', async () => {
    const c = await h.loggedInCase();
    const files = await Promise.all(Array.from({ length: 21 }, () => uniqueLandscapeA4()));
    for (const file of files.slice(0, 20)) expect((await upload(c.token, file)).status).toBe(201);
    const messages = {
      en: 'This submission already has 20 files, the most it can take.',
      sc: '此提交已有20个档案，已达上限。',
      tc: '此提交已有20個檔案，已達上限。',
    };
    for (const [lang, message] of Object.entries(messages)) {
      const refused = await upload(c.token, files[20]!, 'supportingDocument', `?lang=${lang}`);
      expect(refused.status).toBe(409);
      expect(refused.body.meta.code).toBe('DOCUMENT_TOO_MANY');
      expect(refused.body.meta.message).toContain(message);
    }
    const kept = await h.database.db.select().from(caseUploads).where(eq(caseUploads.applicationId, c.id));
    expect(kept).toHaveLength(20);
    // Another follow-up of the same case has its own 20.
    expect(
      (await upload(c.token, files[20]!, 'supportingDocument', '', { forType: 'layoutPlans' })).status,
    ).toBe(201);
  });

  it('removes a file not yet submitted (204), then it is gone (404)', async () => {
    const c = await h.loggedInCase();
    const id = await uploaded(c.token);
    expect((await h.call('DELETE', `${UPLOADS}/${id}`, { token: c.token })).status).toBe(204);
    expect((await h.call('DELETE', `${UPLOADS}/${id}`, { token: c.token })).status).toBe(404);
    expect((await h.call('DELETE', `${UPLOADS}/abc`, { token: c.token })).status).toBe(400);
  });

  it('refuses the same content for a second document type of one follow-up, in en, sc and tc', async () => {
    const c = await h.loggedInCase();
    const content = await uniqueLandscapeA4();
    const first = await upload(c.token, content, 'supportingDocument', '', { name: 'cert.pdf' });
    expect(first.status).toBe(201);
    // Today every upload step has one type ('supportingDocument'); a step of several types (as the
    // application's) would have recorded the first file under another: made so here.
    await h.database.db
      .update(caseUploads)
      .set({ documentType: 'layoutPlans' })
      .where(eq(caseUploads.id, first.body.data.id));
    for (const [lang, text] of [
      [
        'en',
        '"copy.pdf" is the same file as "cert.pdf", already uploaded to this submission as another type of document. One file can be one document only: upload the right file for this type.',
      ],
      [
        'tc',
        '「copy.pdf」與已作為另一文件類別上載至本次提交的「cert.pdf」是同一檔案。一個檔案只可作為一份文件：請為此類別上載正確的檔案。',
      ],
      [
        'sc',
        '“copy.pdf”与已作为另一文件类别上载至本次提交的“cert.pdf”是同一档案。一个档案只可作为一份文件：请为此类别上载正确的档案。',
      ],
    ] as const) {
      const res = await upload(c.token, content, 'supportingDocument', `?lang=${lang}`, { name: 'copy.pdf' });
      expect(res.status).toBe(409);
      expect(res.body.meta.code).toBe('DOCUMENT_DUPLICATE');
      expect(res.body.meta.message).toBe(text);
      expect(res.body.data).toEqual({ fileName: 'copy.pdf', sameAs: 'cert.pdf' });
    }
    const rows = await h.database.db.select().from(caseUploads).where(eq(caseUploads.applicationId, c.id));
    expect(rows.map((r) => r.originalName)).toEqual(['cert.pdf']);
    // Another follow-up (another type chosen on the form, or a request) may carry the same content.
    expect(
      (await upload(c.token, content, 'supportingDocument', '', { forType: 'layoutPlans' })).status,
    ).toBe(201);
    expect((await upload(c.token, content, 'supportingDocument', '', { requestId: 5 })).status).toBe(201);
  });

  it('needs a session (401)', async () => {
    expect((await upload('nope', await landscapeA4())).status).toBe(401);
  });
});

describe('Submit Supporting Document', () => {
  it('submits the files: one history row with each file, downloadable for 7 days, and an acknowledgement', async () => {
    const c = await h.loggedInCase('SUBMITTED', 'en');
    const ids = [await uploaded(c.token), await uploaded(c.token)];

    const res = await submit(c.token, ids);

    expect(res.status).toBe(200);
    expect(res.body.data.reference).toBe(`SD-${c.applicationNo}-1`);
    expect(res.body.data.status).toBe('SUBMITTED');
    const data = (await h.current(c.token)).body.data;
    const row = data.history.find((r) => r.documentType === 'SUPPORTING_DOCUMENT');
    expect(row?.reference).toBe(res.body.data.reference);
    expect(row?.documents.map((d) => [d.kind, d.fileName, d.downloadable])).toEqual([
      ['other', 'plan.pdf', true],
      ['other', 'plan.pdf', true],
    ]);
    const file = await h.download(`/api/cases/current/documents/${row!.documents[0]!.id}`, c.token);
    expect(file.status).toBe(200);
    expect(new TextDecoder().decode(file.bytes.slice(0, 5))).toBe('%PDF-');
    // A submitted file is the case's now: it cannot be removed nor submitted again.
    expect((await h.call('DELETE', `${UPLOADS}/${ids[0]}`, { token: c.token })).status).toBe(404);
    const again = await submit(c.token, [ids[0]!]);
    expect(again.status).toBe(400);
    await h.messages.settled();
    const mails = h.smtp.mails.filter((m) => m.to.includes(c.email.toLowerCase()));
    expect(mails.some((m) => m.subject.includes(c.applicationNo))).toBe(true);

    h.clock.advance({ hours: 7 * 24 + 1 });
    const { token } = await h.login(c.applicationNo, c.email);
    const late = await h.download(`/api/cases/current/documents/${row!.documents[0]!.id}`, token);
    expect(late.status).toBe(410);
  });

  it("answers the department's request for further information it names (issue 17), and no other", async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const at = h.clock.now();
    const [officer] = await h.database.db
      .insert(staffAccounts)
      .values({
        username: `uploads.officer.${c.id}`,
        role: 'caseOfficer',
        nameEn: 'Officer Uploads',
        nameZh: '上載主任',
        postEn: 'Building Surveyor',
        postZh: '屋宇測量師',
        telephone: '2626 1616',
        email: 'uploads.officer@bd.gov.hk',
        passwordHash: 'not-used',
        totpSecret: 'JBSWY3DPEHPK3PXP',
      })
      .returning({ id: staffAccounts.id });
    const [request] = await h.database.db
      .insert(informationRequests)
      .values({
        applicationId: c.id,
        staffId: officer!.id,
        documentTypes: ['layoutPlans'],
        replyBy: '2099-01-01',
        createdAt: at,
      })
      .returning({ id: informationRequests.id });
    const requestId = request!.id;
    const answering = (id: number, uploads: number[], key = newKey()) =>
      actSigned(
        h,
        c.token,
        'submitDocument',
        { answers: { documentType: 'other', description: 'Revised layout plan' }, uploads, requestId: id },
        { key },
      );

    // A request that is not an open one of this case refuses the whole follow-up: nothing is written.
    const elsewhere = await uploaded(c.token, requestId + 100_000);
    const wrong = await answering(requestId + 100_000, [elsewhere]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.meta.message).toBe(
      'This request for further information is not open on your application.',
    );
    expect(await h.database.db.select().from(caseActions).where(eq(caseActions.applicationId, c.id))).toEqual(
      [],
    );
    // A file uploaded for another request (or none) does not answer this one.
    const notForIt = await answering(requestId, [elsewhere]);
    expect(notForIt.status).toBe(400);
    expect(JSON.stringify(notForIt.body)).toContain('uploads');
    const [still] = await h.database.db
      .select()
      .from(informationRequests)
      .where(eq(informationRequests.id, requestId));
    expect(still?.answeredAt).toBeNull();

    const file = await uploaded(c.token, requestId);

    const answered = await answering(requestId, [file]);
    expect(answered.status).toBe(200);
    const [row] = await h.database.db
      .select()
      .from(informationRequests)
      .where(eq(informationRequests.id, requestId));
    expect(row?.answeredAt).not.toBeNull();
    expect((await h.current(c.token)).body.data.requests[0]).toMatchObject({ id: requestId });
    expect((await h.current(c.token)).body.data.requests[0]?.answeredAt).not.toBeNull();
    // Answered once: another submission cannot answer it again.
    expect((await answering(requestId, [await uploaded(c.token, requestId)])).status).toBe(400);
  });

  it('needs at least one file, and a description for "Other"', async () => {
    const c = await h.loggedInCase();
    const none = await submit(c.token, []);
    expect(none.status).toBe(400);
    const id = await uploaded(c.token);
    const blank = await submit(c.token, [id], newKey(), { description: '' });
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain('answers.description');
  });

  it("refuses another case's file with 403 and takes nothing", async () => {
    const mine = await h.loggedInCase();
    const theirs = await h.loggedInCase();
    const id = await uploaded(theirs.token);
    const res = await submit(mine.token, [id]);
    expect(res.status).toBe(403);
    const [row] = await h.database.db.select().from(caseUploads).where(eq(caseUploads.id, id));
    expect(row?.actionId).toBeNull();
  });

  it('parallel submissions with one key make one submission and one set of documents', async () => {
    const c = await h.loggedInCase();
    const id = await uploaded(c.token);
    const key = newKey();
    const answers = { documentType: 'other', description: 'Fire certificate' };
    const signature = await signFollowUp(h, c.token, { followUp: 'submitDocument', answers, uploads: [id] });
    const once = () =>
      h.act(c.token, 'submitDocument', answers, { key, rawBody: { answers, uploads: [id], signature } });
    const replies = await Promise.all([once(), once()]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(replies[0].body.data.reference).toBe(replies[1].body.data.reference);
    const actions = await h.database.db.select().from(caseActions).where(eq(caseActions.applicationId, c.id));
    expect(actions.length).toBe(1);
    const docs = await h.database.db
      .select()
      .from(caseDocuments)
      .where(eq(caseDocuments.applicationId, c.id));
    expect(docs.length).toBe(1);
  });

  it('is refused on a closed case (409) and allowed to an AP appointed to the case', async () => {
    const closed = await h.loggedInCase('WITHDRAWN');
    const id = await uploaded(closed.token);
    expect((await submit(closed.token, [id])).status).toBe(409);

    const app = await h.addApplication({ status: 'LOR_ISSUED' });
    const ap = await h.sessionOn(app.id, 'ap');
    const res = await submit(ap, [await uploaded(ap)]);
    expect(res.status).toBe(200);
    const row = (await h.current(ap)).body.data.history.find((r) => r.documentType === 'SUPPORTING_DOCUMENT');
    expect(row?.submittedBy).toBe('AP');
  });
});

describe('the files of a case in the maintenance jobs', () => {
  // Last: it moves the clock on and purges every file still waiting.
  it('keeps waiting and submitted files from the sweep; a file never submitted goes after a day', async () => {
    const c = await h.loggedInCase();
    const sent = await uploaded(c.token);
    expect((await submit(c.token, [sent])).status).toBe(200);
    const waiting = await uploaded(c.token);
    const keyOf = async (id: number) =>
      (await h.database.db.select().from(caseUploads).where(eq(caseUploads.id, id)))[0]?.storageKey ?? '';
    const [sentKey, waitingKey] = [await keyOf(sent), await keyOf(waiting)];
    const deps = { db: h.database.db, clock: h.clock, storage: h.storage };

    // Every file looks older than the sweep's hour, by the test's clock.
    const old = new Date(h.clock.now().getTime() - 3_600_000 * 2);
    for (const name of await h.storedFiles()) await utimes(path.join(h.storageDir, name), old, old);
    const swept = await sweepFiles(deps);
    expect(swept.orphans).toBe(0);
    expect(await h.storedFiles()).toEqual(expect.arrayContaining([sentKey, waitingKey]));

    h.clock.advance({ hours: 25 });
    expect((await purgeExpired(deps)).caseUploads).toBeGreaterThanOrEqual(1);
    const files = await h.storedFiles();
    expect(files).toContain(sentKey);
    expect(files).not.toContain(waitingKey);
    expect(await keyOf(waiting)).toBe('');
  });
});
