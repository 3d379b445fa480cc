import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseDocuments, caseUploads } from '../../drizzle/schema';
import type { CaseUploadData, CaseUploadListData } from '../../machines/rules/case';
import { bigPdf, type PdfBytes, uniqueLandscapeA4 } from '../support/pdf-corpus';
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

/** Uploads a file for the follow-up of this type (and request): its content new unless `content` is given. */
function upload(
  token: string,
  forType: string,
  { name = 'plan.pdf', content, requestId, lang = 'en' }: UploadOptions = {},
) {
  return (async () => {
    const form = new FormData();
    form.append('documentType', 'supportingDocument');
    form.append('forType', forType);
    if (requestId !== undefined) form.append('requestId', String(requestId));
    form.append(
      'file',
      new Blob([(content ?? (await uniqueLandscapeA4())).slice()], { type: 'application/pdf' }),
      name,
    );
    return h.call<CaseUploadData>('POST', `${UPLOADS}?lang=${lang}`, { token, body: form });
  })();
}

interface UploadOptions {
  name?: string;
  content?: PdfBytes;
  requestId?: number;
  lang?: string;
}

async function uploaded(token: string, name = 'plan.pdf', forType = 'layoutPlans'): Promise<number> {
  const res = await upload(token, forType, { name });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const listed = async (token: string, query: string) =>
  (await h.call<CaseUploadListData>('GET', `${UPLOADS}?${query}`, { token })).body.data.uploads.map(
    (u) => u.id,
  );

const plan = (revision?: string) => ({
  documentType: 'layoutPlans',
  ...(revision === undefined ? {} : { revision }),
});

describe('the files waiting for their follow-up', () => {
  it('lists them oldest first with the limits; a submitted file is no longer waiting', async () => {
    const c = await h.loggedInCase();
    const empty = await h.call<CaseUploadListData>('GET', `${UPLOADS}?forType=other`, { token: c.token });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ uploads: [], limits: h.limits });

    const first = await uploaded(c.token, 'first.pdf', 'other');
    const second = await uploaded(c.token, 'second.pdf', 'other');
    const list = await h.call<CaseUploadListData>('GET', `${UPLOADS}?forType=other`, { token: c.token });
    expect(list.body.data.uploads.map((u) => [u.id, u.fileName, u.pageCount])).toEqual([
      [first, 'first.pdf', 1],
      [second, 'second.pdf', 1],
    ]);

    const res = await actSigned(h, c.token, 'submitDocument', {
      answers: { documentType: 'other', description: 'Annex' },
      uploads: [first],
    });
    expect(res.status).toBe(200);
    expect(await listed(c.token, 'forType=other')).toEqual([second]);
  });

  it("never lists another case's files, and needs a session", async () => {
    const mine = await h.loggedInCase();
    const theirs = await h.loggedInCase();
    await uploaded(theirs.token, 'plan.pdf', 'other');
    expect(await listed(mine.token, 'forType=other')).toEqual([]);
    expect((await h.call('GET', `${UPLOADS}?forType=other`, { token: 'nope' })).status).toBe(401);
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
      uploads: [await uploaded(c.token, 'fire.pdf', 'other')],
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

const errorsOf = (body: unknown) =>
  (body as { data: { errors: { path: string; message: string }[] } }).data.errors;

describe('each file belongs to the follow-up it was uploaded for', () => {
  it("an abandoned layout plan's files never come back in a follow-up of another type, nor count there", async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const content = await uniqueLandscapeA4();
    const plan1 = await upload(c.token, 'layoutPlans', { name: 'plan-1.pdf', content });
    expect(plan1.status).toBe(201);
    const big = await upload(c.token, 'layoutPlans', {
      name: 'plan-2.pdf',
      content: await bigPdf({ pages: 1, bytes: 200 * 1024 }),
    });
    expect(big.status).toBe(201);
    // Abandoned; a supporting document starts empty, and the abandoned files take no room from it.
    expect(await listed(c.token, 'forType=other')).toEqual([]);
    const fire = await upload(c.token, 'other', {
      name: 'fire.pdf',
      content: await bigPdf({ pages: 1, bytes: 200 * 1024 }),
    });
    expect(fire.status).toBe(201);
    // The same content as the abandoned plan is a file of this follow-up like any other.
    const again = await upload(c.token, 'other', { name: 'plan-1.pdf', content });
    expect(again.status).toBe(201);
    expect(await listed(c.token, 'forType=other')).toEqual([fire.body.data.id, again.body.data.id]);
    expect(await listed(c.token, 'forType=layoutPlans')).toEqual([plan1.body.data.id, big.body.data.id]);

    // Naming the abandoned files in the supporting document is refused, in the request's language.
    for (const [lang, text] of [
      [
        'en',
        'A file of this submission was uploaded for another document type or request. Upload it again here.',
      ],
      ['tc', '本次提交的一個檔案是為另一文件類別或另一要求而上載的，請在此重新上載。'],
      ['sc', '本次提交的一个档案是为另一文件类别或另一要求而上载的，请在此重新上载。'],
    ] as const) {
      const wrong = await actSigned(
        h,
        c.token,
        'submitDocument',
        {
          answers: { documentType: 'other', description: 'Fire certificate' },
          uploads: [plan1.body.data.id],
        },
        { lang, key: newKey() },
      );
      expect(wrong.status).toBe(400);
      expect(errorsOf(wrong.body).find((e) => e.path === 'uploads')?.message).toBe(text);
    }
    const sent = await actSigned(h, c.token, 'submitDocument', {
      answers: { documentType: 'other', description: 'Fire certificate' },
      uploads: [fire.body.data.id, again.body.data.id],
    });
    expect(sent.status).toBe(200);
    const row = (await h.current(c.token)).body.data.history.find(
      (r) => r.reference === sent.body.data.reference,
    );
    expect(row?.documents.map((d) => [d.fileName, d.kind])).toEqual([
      ['fire.pdf', 'other'],
      ['plan-1.pdf', 'other'],
    ]);
    // The abandoned plans wait (until purged a day after their upload), still only for a layout plan.
    expect(await listed(c.token, 'forType=layoutPlans')).toEqual([plan1.body.data.id, big.body.data.id]);
  });

  it("a file uploaded for the department's request goes only with the answer to that request", async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const forRequest = await upload(c.token, 'layoutPlans', { requestId: 77 });
    expect(forRequest.status).toBe(201);
    expect(await listed(c.token, 'forType=layoutPlans')).toEqual([]);
    expect(await listed(c.token, 'forType=layoutPlans&requestId=78')).toEqual([]);
    expect(await listed(c.token, 'forType=layoutPlans&requestId=77')).toEqual([forRequest.body.data.id]);
    const unasked = await actSigned(h, c.token, 'submitDocument', {
      answers: plan('E'),
      uploads: [forRequest.body.data.id],
    });
    expect(unasked.status).toBe(400);
    expect(errorsOf(unasked.body).map((e) => e.path)).toEqual(['uploads']);
    const [row] = await h.database.db
      .select()
      .from(caseUploads)
      .where(eq(caseUploads.id, forRequest.body.data.id));
    expect(row?.actionId).toBeNull();
  });

  it('refuses an upload or a list that does not say its follow-up (400, never 500)', async () => {
    const c = await h.loggedInCase();
    const form = new FormData();
    form.append('documentType', 'supportingDocument');
    form.append(
      'file',
      new Blob([(await uniqueLandscapeA4()).slice()], { type: 'application/pdf' }),
      'a.pdf',
    );
    const none = await h.call('POST', `${UPLOADS}?lang=tc`, { token: c.token, body: form });
    expect(none.status).toBe(400);
    expect(errorsOf(none.body).find((e) => e.path === 'forType')?.message).toBe(
      '請先在表格上選擇文件類別，才上載檔案。',
    );
    for (const [forType, requestId] of [
      ['other', 'abc'],
      ['other', '-1'],
      ['other', '99999999999'],
      ['<script>', undefined],
    ] as const) {
      const res = await upload(
        c.token,
        forType,
        requestId === undefined ? {} : { requestId: requestId as never },
      );
      expect([forType, requestId, res.status]).toEqual([forType, requestId, 400]);
    }
    expect((await h.call('GET', UPLOADS, { token: c.token })).status).toBe(400);
    expect((await h.call('GET', `${UPLOADS}?forType=other&requestId=x`, { token: c.token })).status).toBe(
      400,
    );
    expect(await h.database.db.select().from(caseUploads).where(eq(caseUploads.applicationId, c.id))).toEqual(
      [],
    );
  });
});

describe('the same layout plan twice', () => {
  it('is refused at the upload, in en, sc and tc, and keeps one file', async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const content = await uniqueLandscapeA4();
    const first = await upload(c.token, 'layoutPlans', { name: 'plan-f.pdf', content });
    expect(first.status).toBe(201);
    const before = (await h.storedFiles()).length;
    for (const [lang, text] of [
      [
        'en',
        '"plan-f (1).pdf" is the same file as "plan-f.pdf", already uploaded to this submission. Each file is uploaded once.',
      ],
      ['tc', '「plan-f (1).pdf」與已上載至本次提交的「plan-f.pdf」是同一檔案。每個檔案只須上載一次。'],
      ['sc', '“plan-f (1).pdf”与已上载至本次提交的“plan-f.pdf”是同一档案。每个档案只须上载一次。'],
    ] as const) {
      const twice = await upload(c.token, 'layoutPlans', { name: 'plan-f (1).pdf', content, lang });
      expect(twice.status).toBe(409);
      expect(twice.body.meta.code).toBe('DOCUMENT_DUPLICATE');
      expect(twice.body.meta.message).toBe(text);
    }
    expect((await h.storedFiles()).length).toBe(before);
    expect(await listed(c.token, 'forType=layoutPlans')).toEqual([first.body.data.id]);
    const sent = await actSigned(h, c.token, 'submitDocument', {
      answers: plan('F'),
      uploads: [first.body.data.id],
    });
    expect(sent.status).toBe(200);
    const plans = (await h.current(c.token)).body.data.history.filter(
      (r) => r.documentType === 'LAYOUT_PLAN',
    );
    expect(plans[0]?.documents.map((d) => [d.fileName, d.current])).toEqual([['plan-f.pdf', true]]);
  });

  it('uploaded from two tabs at once: one is kept, the other refused', async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const content = await uniqueLandscapeA4();
    const replies = await Promise.all([
      upload(c.token, 'layoutPlans', { content }),
      upload(c.token, 'layoutPlans', { content }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await listed(c.token, 'forType=layoutPlans')).length).toBe(1);
  });

  it('is never recorded twice by a submission, even from files waiting twice (uploaded before the check)', async () => {
    const c = await h.loggedInCase('ACKNOWLEDGED');
    const id = await uploaded(c.token, 'plan-g.pdf');
    const [row] = await h.database.db.select().from(caseUploads).where(eq(caseUploads.id, id));
    const { id: _drop, ...copy } = row!;
    void _drop;
    const [twin] = await h.database.db
      .insert(caseUploads)
      .values({ ...copy, storageKey: `${copy.storageKey}-twin`, originalName: 'plan-g (1).pdf' })
      .returning({ id: caseUploads.id });
    const res = await actSigned(
      h,
      c.token,
      'submitDocument',
      { answers: plan('G'), uploads: [id, twin!.id] },
      { lang: 'tc' },
    );
    expect(res.status).toBe(400);
    expect(errorsOf(res.body).find((e) => e.path === 'uploads')?.message).toBe(
      '本次提交有同一檔案兩次，請移除其中一個。',
    );
    expect(
      await h.database.db.select().from(caseDocuments).where(eq(caseDocuments.applicationId, c.id)),
    ).toEqual([]);
    // Without the twin it goes, with one current plan.
    const ok = await actSigned(
      h,
      c.token,
      'submitDocument',
      { answers: plan('G'), uploads: [id] },
      { key: newKey() },
    );
    expect(ok.status).toBe(200);
    const docs = await h.database.db
      .select()
      .from(caseDocuments)
      .where(eq(caseDocuments.applicationId, c.id));
    expect(docs.map((d) => d.fileName)).toEqual(['plan-g.pdf']);
  });
});
