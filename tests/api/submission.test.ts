import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentListData } from '../../machines/rules/submission';
import type { SubmissionDetails } from '../../api/modules/applications/submission.service';
import {
  applicationHistory,
  applications,
  draftDocuments,
  drafts,
  signingRequests,
  submissions,
} from '../../drizzle/schema';
import { landscapeA3 } from '../support/pdf-corpus';
import { signDetached } from '../support/test-ca';
import {
  type ApplicationHarness,
  type DraftState,
  type ReadyDraft,
  draftPath,
  newKey,
  startApplicationHarness,
} from './application-harness';
import type { SubmissionData } from '../../machines/rules/submission';

/**
 * Submitting a signed application (spec §2, §4) and downloading what was submitted, over real HTTP and
 * Postgres: idempotency under parallel requests, the "Find my case" record, the acknowledgement received
 * by the SMTP server, signed download links and the 7 days the files stay downloadable. The tests run in
 * order: the last ones move the clock by days.
 */

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness();
});

afterAll(async () => {
  await h?.close();
});

const DAY_MS = 86_400_000;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type Links = { expiresAt: string; files: (SubmissionDetails['files'][number] & { url: string })[] };

const details = (draft: DraftState, token = draft.token) =>
  h.call<SubmissionDetails>('GET', `${draftPath(draft.applicationNo)}/submission`, { token });
const links = (draft: DraftState, token = draft.token) =>
  h.call<Links>('POST', `${draftPath(draft.applicationNo)}/submission/links`, { token });

async function submittedRows(applicationNo: string) {
  const subs = await h.database.db
    .select({ id: submissions.id, applicationId: submissions.applicationId })
    .from(submissions)
    .innerJoin(drafts, eq(drafts.id, submissions.draftId))
    .where(eq(drafts.applicationNo, applicationNo));
  const apps = await h.database.db
    .select()
    .from(applications)
    .where(eq(applications.applicationNo, applicationNo));
  const history = apps[0]
    ? await h.database.db
        .select()
        .from(applicationHistory)
        .where(eq(applicationHistory.applicationId, apps[0].id))
    : [];
  return { submissions: subs, applications: apps, history };
}

/** The acknowledgement mails the SMTP server received for an application. */
async function acknowledgements(applicationNo: string) {
  await h.messages.settled();
  return h.smtp.mails.filter((m) => m.subject.includes(applicationNo));
}

/** `filename` and the decoded `filename*` of a Content-Disposition header. */
function dispositionNames(header: string | null): { ascii?: string; utf8?: string } {
  const ascii = /filename="([^"]*)"/.exec(header ?? '')?.[1];
  const star = /filename\*=UTF-8''([^;\s]+)/.exec(header ?? '')?.[1];
  return { ascii, utf8: star === undefined ? undefined : decodeURIComponent(star) };
}

describe('submitting an application that cannot be submitted yet', () => {
  it('answers 409 SIGNATURE_REQUIRED when nothing was signed', async () => {
    const draft = await h.readyDraft();

    const res = await h.submit(draft);

    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      meta: { code: 'SIGNATURE_REQUIRED', message: 'Please sign the application before submitting it.' },
      data: { outdated: false },
    });
    expect((await submittedRows(draft.applicationNo)).submissions).toEqual([]);
  });

  it('answers 409 SIGNATURE_REQUIRED (outdated) when an answer changed after signing', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    await h.save(draft, { ...draft.answers, orgTelephone: '2999 8888' });

    const res = await h.submit(draft);

    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      meta: {
        code: 'SIGNATURE_REQUIRED',
        message: 'The application or its documents changed after it was signed. Please sign again.',
      },
      data: { outdated: true },
    });
  });

  it('answers 409 SIGNATURE_REQUIRED (outdated) when a document was replaced after signing', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    await h.upload(draft, 'locationPlan', await landscapeA3(), 'new location.pdf');

    const res = await h.submit(draft);

    expect(res.status).toBe(409);
    expect(res.body.data).toEqual({ outdated: true });
  });

  it('answers 400 without an Idempotency-Key or with one of the wrong shape, and submits nothing', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);

    const missing = await h.call('POST', `${draftPath(draft.applicationNo)}/submission`, {
      token: draft.token,
    });
    const short = await h.submit(draft, 'short');
    const spaces = await h.submit(draft, 'a key with spaces in it');

    for (const res of [missing, short, spaces]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        meta: {
          code: 'BAD_REQUEST',
          message: 'The submission request is incomplete. Please reload the page and submit again.',
        },
        data: {
          errors: [
            {
              path: 'Idempotency-Key',
              message: 'The submission request is incomplete. Please reload the page and submit again.',
            },
          ],
        },
      });
    }
    expect((await submittedRows(draft.applicationNo)).submissions).toEqual([]);
  });

  it('answers 404 for the submission of a draft not submitted', async () => {
    const draft = await h.readyDraft();

    const res = await details(draft);

    expect(res.status).toBe(404);
    expect(res.body.meta).toEqual({ code: 'NOT_FOUND', message: 'This application has not been submitted.' });
  });
});

describe('submitting a signed application', () => {
  it('submits: the draft is closed, the application is in Find my case with one history row', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    const now = h.clock.now();

    const res = await h.submit(draft);
    const save = await h.save(draft, { ...draft.answers, orgTelephone: '2999 8888' });
    const rows = await submittedRows(draft.applicationNo);
    await h.messages.settled(); // the acknowledgement is out before the login's code is read
    h.clock.advance({ seconds: 61 }); // past the contact code's resend wait
    const session = await h.login(draft.applicationNo, draft.email);
    const history = await h.get<{ applicationNo: string; rows: { status: string; documentType: string }[] }>(
      '/api/application/history',
      session.token,
    );

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      meta: { code: '200', message: 'Your application has been submitted.' },
      data: {
        applicationNo: draft.applicationNo,
        submittedAt: now.toISOString(),
        downloadUntil: new Date(now.getTime() + 7 * DAY_MS).toISOString(),
      },
    });
    expect(save.status).toBe(409);
    expect(save.body.meta.code).toBe('DRAFT_SUBMITTED');
    expect(rows.submissions).toHaveLength(1);
    expect(rows.applications).toEqual([
      expect.objectContaining({
        applicationNo: draft.applicationNo,
        formCode: 'A2',
        applicationType: 'NEWSCH',
        status: 'SUBMITTED',
        applicantNameEn: 'CHAN Tai Man',
        email: draft.email,
        language: 'en',
      }) as unknown,
    ]);
    expect(rows.history).toEqual([
      expect.objectContaining({
        status: 'SUBMITTED',
        documentType: 'APPLICATION_FORM',
        submittedBy: 'APPLICANT',
      }) as unknown,
    ]);
    expect(history.status).toBe(200);
    expect(history.body.data.applicationNo).toBe(draft.applicationNo);
    expect(history.body.data.rows).toHaveLength(1);
    expect(history.body.data.rows[0]).toMatchObject({
      status: 'SUBMITTED',
      documentType: 'APPLICATION_FORM',
    });
  });

  it('gives a logged-in applicant (Find my case) the details and the downloads of an online submission', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    await h.submit(draft);
    await h.messages.settled();
    h.clock.advance({ seconds: 61 });
    const session = await h.login(draft.applicationNo, draft.email);

    const details = await h.call<{ applicationNo: string; downloadable: boolean; files: { id: string }[] }>(
      'GET',
      '/api/application/submission',
      { token: session.token },
    );
    const links = await h.call<{ files: { id: string; url: string }[] }>(
      'POST',
      '/api/application/submission/links',
      {
        token: session.token,
        body: {},
      },
    );
    const pdf = await h.download(links.body.data.files.find((f) => f.id === 'application')?.url ?? '');
    const noSession = await h.call('GET', '/api/application/submission');

    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({ applicationNo: draft.applicationNo, downloadable: true });
    expect(details.body.data.files.map((f) => f.id)).toContain('archive');
    expect(links.status).toBe(200);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(noSession.status).toBe(401);
  });

  it('answers 404 to a logged-in applicant whose application was not submitted online', async () => {
    // An application known to Find my case without an online submission (as one made on paper).
    const draft = await h.readyDraft();
    await h.sign(draft);
    await h.submit(draft);
    await h.messages.settled();
    const applicationId = (await submittedRows(draft.applicationNo)).applications[0]?.id ?? 0;
    await h.database.db.delete(submissions).where(eq(submissions.applicationId, applicationId));
    h.clock.advance({ seconds: 61 });
    const session = await h.login(draft.applicationNo, draft.email);

    const res = await h.call('GET', '/api/application/submission', { token: session.token });

    expect(res.status).toBe(404);
    expect(res.body.meta.code).toBe('NOT_FOUND');
  });

  it('sends the acknowledgement by email in English, with the number and the 1-to-2-working-days sentence', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);

    await h.submit(draft, newKey(), '?lang=en');
    const mails = await acknowledgements(draft.applicationNo);

    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual([draft.email]);
    expect(mails[0]?.subject).toBe(`Application ${draft.applicationNo} received`);
    expect(mails[0]?.text).toContain(`has received your application ${draft.applicationNo} (Form A2)`);
    expect(mails[0]?.text).toContain(
      'The contact details of the case officer who handles your application will be sent to you within 1 to 2 working days.',
    );
  });

  it('sends the acknowledgement in Chinese when the applicant submits in Chinese, and records that language', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);

    const res = await h.submit(draft, newKey(), '?lang=tc');
    const mails = await acknowledgements(draft.applicationNo);

    expect(res.body.meta.message).toBe('你的申請已提交。');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`已收到申請 ${draft.applicationNo}`);
    expect(mails[0]?.text).toContain(`申請 ${draft.applicationNo}（表格 A2）`);
    expect(mails[0]?.text).toContain('負責處理你申請的個案主任的聯絡資料，將於 1 至 2 個工作天內發送給你。');
    expect((await submittedRows(draft.applicationNo)).applications[0]?.language).toBe('tc');
  });

  it('submits once for 10 parallel requests with the same key, all answered 200 with the same body', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    const key = newKey();

    // Started 3 ms apart, all in flight together: some arrive while the first one commits.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => delay(3 * i).then(() => h.submit(draft, key))),
    );
    const rows = await submittedRows(draft.applicationNo);
    const mails = await acknowledgements(draft.applicationNo);

    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(rows.submissions).toHaveLength(1);
    expect(rows.applications).toHaveLength(1);
    expect(rows.history).toHaveLength(1);
    expect(mails).toHaveLength(1);
  });

  it('answers a retry with the same key as the first time, and another key with 409 ALREADY_SUBMITTED', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    const key = newKey();
    const first = await h.submit(draft, key);
    h.clock.advance({ seconds: 30 });

    const retry = await h.submit(draft, key);
    const other = await h.submit(draft, newKey());

    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      meta: { code: 'ALREADY_SUBMITTED', message: 'This application has already been submitted.' },
      data: first.body.data,
    });
    expect((await submittedRows(draft.applicationNo)).submissions).toHaveLength(1);
  });

  it('submits an application signed with an e-Cert, naming that signature', async () => {
    const draft = await h.readyDraft({ applicantNameEn: 'CHAN TAI MAN' });
    const prepared = await h.call<{ content: string }>(
      'GET',
      `${draftPath(draft.applicationNo)}/signing/ecert`,
      {
        token: draft.token,
      },
    );
    const form = new FormData();
    const p7s = await signDetached(new TextEncoder().encode(prepared.body.data.content), h.pki.signers.valid);
    form.append('signature', new Blob([p7s.slice()]), 'signature.p7s');
    const signed = await h.call<{ reference: string }>(
      'POST',
      `${draftPath(draft.applicationNo)}/signing/ecert`,
      {
        token: draft.token,
        body: form,
      },
    );

    const res = await h.submit(draft);
    const [row] = await h.database.db
      .select({ requestId: signingRequests.requestId })
      .from(submissions)
      .innerJoin(signingRequests, eq(signingRequests.id, submissions.signingRequestId))
      .innerJoin(drafts, eq(drafts.id, submissions.draftId))
      .where(eq(drafts.applicationNo, draft.applicationNo));

    expect(signed.status).toBe(200);
    expect(res.status).toBe(200);
    expect(row?.requestId).toBe(signed.body.data.reference);
  });
});

describe('what is downloaded is what was signed', () => {
  it('submits and serves a document uploaded again unchanged after signing (the signed file is kept)', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    const layout = draft.documents.find((d) => d.documentType === 'layoutPlans')!;
    const again = await h.upload(draft, 'layoutPlans', layout.content, 'layoutPlans again.pdf');

    const res = await h.submit(draft);
    const files = (await links(draft)).body.data.files;
    const signed = files.find((f) => f.id === `document-${layout.id}`);
    const got = signed ? await h.download(signed.url) : undefined;

    expect(again.status).toBe(201);
    expect(res.status).toBe(200);
    expect(got?.status).toBe(200);
    expect(sha256(got!.bytes)).toBe(layout.sha256);
  });

  it('names the files of an archive apart when documents share a file name', async () => {
    const draft = await h.readyDraft();
    for (const type of ['layoutPlans', 'locationPlan', 'occupancyProof'])
      await h.upload(draft, type, await landscapeA3(), 'plan.pdf');
    await h.sign(draft);
    await h.submit(draft);
    const archive = (await links(draft)).body.data.files.find((f) => f.id === 'archive')!;

    const entries = unzipSync((await h.download(archive.url)).bytes);

    expect(Object.keys(entries).sort()).toEqual(
      [
        `${draft.applicationNo} application form.pdf`,
        `${draft.applicationNo} plan.pdf`,
        `${draft.applicationNo} plan (2).pdf`,
        `${draft.applicationNo} plan (3).pdf`,
      ].sort(),
    );
  });

  it('ends the download of a file gone from the storage without stopping the server', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    await h.submit(draft);
    const document = draft.documents[0]!;
    const [row] = await h.database.db
      .select({ storageKey: draftDocuments.storageKey })
      .from(draftDocuments)
      .where(eq(draftDocuments.id, document.id));
    await rm(path.join(h.storageDir, row!.storageKey));
    const file = (await links(draft)).body.data.files.find((f) => f.id === `document-${document.id}`)!;

    const got = await h.download(file.url).catch(() => undefined);
    const health = await h.call('GET', '/api/health');

    expect(got?.status ?? 0).not.toBe(200);
    expect(health.status).toBe(200);
  });
});

describe('the submitted application and its files', () => {
  /** The name typed in the browser, with Chinese characters and quotes. */
  const chineseName = '平面圖 "最終" \'v2\'.pdf';
  let draft: ReadyDraft;
  let uploaded: DocumentListData['documents'];
  const sent = new Map<string, Uint8Array>();
  let submitted: SubmissionData;

  beforeAll(async () => {
    draft = await h.readyDraft();
    for (const d of draft.documents) sent.set(d.documentType, d.content);
    const layout = await landscapeA3();
    const replaced = await h.upload(draft, 'layoutPlans', layout, chineseName);
    if (replaced.status !== 201) throw new Error(`upload answered ${replaced.status}`);
    sent.set('layoutPlans', layout);
    uploaded = (
      await h.call<DocumentListData>('GET', `${draftPath(draft.applicationNo)}/documents`, {
        token: draft.token,
      })
    ).body.data.documents;
    await h.sign(draft);
    submitted = (await h.submit(draft)).body.data;
  });

  it('answers the submission’s details, downloadable, with the application form, each document and the archive', async () => {
    const res = await details(draft);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...submitted,
      formKey: 'a2',
      formCode: 'A2',
      applicationType: 'NEWSCH',
      applicant: { nameEn: 'CHAN Tai Man', nameZh: '陳大文', email: draft.email, mobile: '9123 4567' },
      contactPerson: {
        name: 'LEE Siu Ming',
        email: String(draft.answers.contactEmail),
        mobile: '+852 6123 4567',
        telephone: '3123 4567',
      },
      downloadable: true,
      files: [
        { id: 'application', kind: 'application', fileName: `${draft.applicationNo} application form.pdf` },
        ...uploaded.map((d) => ({
          id: `document-${d.id}`,
          kind: 'document',
          documentType: d.documentType,
          fileName: `${draft.applicationNo} ${d.fileName}`,
          bytes: d.bytes,
        })),
        { id: 'archive', kind: 'archive', fileName: `${draft.applicationNo} documents.zip` },
      ],
    });
  });

  it('keeps the Chinese file name as uploaded (the quotes dropped)', () => {
    const layout = uploaded.find((d) => d.documentType === 'layoutPlans');

    expect(layout?.fileName).toContain('平面圖');
    expect(layout?.fileName).toContain('最終');
    expect(layout?.fileName).not.toContain('"');
  });

  it('gives signed links that download the application form, each document as uploaded and an archive of all', async () => {
    const res = await links(draft);
    const files = await Promise.all(
      res.body.data.files.map(async (f) => ({ ...f, got: await h.download(f.url) })),
    );
    const [signedRequest] = await h.database.db
      .select({ pdfSha256: signingRequests.pdfSha256 })
      .from(submissions)
      .innerJoin(signingRequests, eq(signingRequests.id, submissions.signingRequestId))
      .innerJoin(drafts, eq(drafts.id, submissions.draftId))
      .where(eq(drafts.applicationNo, draft.applicationNo));

    expect(res.status).toBe(200);
    expect(res.body.data.expiresAt).toBe(new Date(h.clock.now().getTime() + 10 * 60_000).toISOString());
    expect(files.map((f) => f.id)).toEqual([
      'application',
      ...uploaded.map((d) => `document-${d.id}`),
      'archive',
    ]);
    for (const f of files) {
      expect(f.url).toMatch(
        new RegExp(
          `^/api/submissions/${draft.applicationNo}/files/${f.id}\\?expires=\\d+&signature=[\\w-]+$`,
        ),
      );
      expect(f.got.status).toBe(200);
      expect(f.got.headers.get('cache-control')).toBe('private, no-store');
    }

    const application = files[0]!.got;
    expect(application.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(application.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect((await PDFDocument.load(application.bytes)).getPageCount()).toBeGreaterThan(0);
    expect(sha256(application.bytes)).toBe(signedRequest?.pdfSha256);

    for (const d of uploaded) {
      const got = files.find((f) => f.id === `document-${d.id}`)!.got;
      expect(sha256(got.bytes)).toBe(d.sha256);
      expect(sha256(got.bytes)).toBe(sha256(sent.get(d.documentType)!));
    }

    const archive = files.at(-1)!.got;
    expect(archive.headers.get('content-type')).toBe('application/zip');
    const entries = unzipSync(archive.bytes);
    const single = files.slice(0, -1);
    expect(Object.keys(entries).sort()).toEqual(single.map((f) => f.fileName).sort());
    for (const f of single) expect(sha256(entries[f.fileName]!)).toBe(sha256(f.got.bytes));
  });

  it('names each download in Content-Disposition as ASCII and as UTF-8 (RFC 6266)', async () => {
    const res = await links(draft);
    const layout = uploaded.find((d) => d.documentType === 'layoutPlans')!;
    const file = res.body.data.files.find((f) => f.id === `document-${layout.id}`)!;

    const got = await h.download(file.url);
    const header = got.headers.get('content-disposition');
    const names = dispositionNames(header);

    expect(header).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''[^\s;]+$/);
    expect(names.ascii).toMatch(/^[\x20-\x7e]+$/);
    expect(names.ascii).toContain(draft.applicationNo);
    expect(names.utf8).toBe(`${draft.applicationNo} ${layout.fileName}`);
    expect(names.utf8).toContain('平面圖');
  });

  it('downloads with the draft’s token as well', async () => {
    const got = await h.download(
      `${draftPath(draft.applicationNo)}/submission/files/application`,
      draft.token,
    );
    const anonymous = await h.download(`${draftPath(draft.applicationNo)}/submission/files/application`);

    expect(got.status).toBe(200);
    expect(Buffer.from(got.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(anonymous.status).toBe(401);
  });

  it('answers 403 for a link whose signature, file or application was changed', async () => {
    const res = await links(draft);
    const url = res.body.data.files[0]!.url;
    const signature = /signature=([\w-]+)/.exec(url)![1]!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const other = await h.readyDraft();

    const tampered = await h.download(url.replace(signature, flipped));
    const otherFile = await h.download(url.replace('/files/application', '/files/archive'));
    const otherApplication = await h.download(
      url.replace(encodeURIComponent(draft.applicationNo), encodeURIComponent(other.applicationNo)),
    );
    const later = await h.download(
      url.replace(/expires=(\d+)/, (_m, e: string) => `expires=${Number(e) + 60_000}`),
    );

    for (const got of [tampered, otherFile, otherApplication, later]) {
      expect(got.status).toBe(403);
      expect(got.body?.meta.code).toBe('FORBIDDEN');
    }
    expect(tampered.body?.meta.message).toBe(
      'This download link is not valid. Open the submission page and download again.',
    );
  });

  it('refuses another applicant’s token with 403', async () => {
    const other = await h.readyDraft();

    const read = await details(draft, other.token);
    const link = await links(draft, other.token);
    const file = await h.download(
      `${draftPath(draft.applicationNo)}/submission/files/application`,
      other.token,
    );

    expect(read.status).toBe(403);
    expect(link.status).toBe(403);
    expect(file.status).toBe(403);
  });

  it('answers 410 LINK_EXPIRED for a link used after its 10 minutes', async () => {
    const res = await links(draft);
    const url = res.body.data.files[0]!.url;
    h.clock.advance({ minutes: 10 });
    const atTheEnd = await h.download(url);
    h.clock.advance({ ms: 1 });

    const expired = await h.download(url);

    expect(atTheEnd.status).toBe(200);
    expect(expired.status).toBe(410);
    expect(expired.body?.meta).toEqual({
      code: 'LINK_EXPIRED',
      message: 'This download link has expired. Open the submission page and download again.',
    });
  });

  it('stops every download 7 days after submission (410 DOWNLOAD_EXPIRED) while the details stay readable', async () => {
    const until = new Date(submitted.downloadUntil).getTime();
    h.clock.advance({ ms: until - h.clock.now().getTime() - 60_000 });
    const lastLinks = await links(draft);
    const lastMinute = await h.download(lastLinks.body.data.files[0]!.url);
    h.clock.advance({ minutes: 1 });

    const file = await h.download(
      `${draftPath(draft.applicationNo)}/submission/files/application`,
      draft.token,
    );
    const archive = await h.download(
      `${draftPath(draft.applicationNo)}/submission/files/archive`,
      draft.token,
    );
    const newLinks = await links(draft);
    const oldLink = await h.download(lastLinks.body.data.files[0]!.url);
    const read = await details(draft);

    expect(lastLinks.body.data.expiresAt).toBe(submitted.downloadUntil);
    expect(lastMinute.status).toBe(200);
    for (const res of [file, archive]) {
      expect(res.status).toBe(410);
      expect(res.body?.meta.code).toBe('DOWNLOAD_EXPIRED');
    }
    expect(newLinks.status).toBe(410);
    expect(newLinks.body.meta).toEqual({
      code: 'DOWNLOAD_EXPIRED',
      message:
        'The submitted documents could be downloaded for 7 days after submission; that time is over. Contact the Buildings Department for a copy.',
    });
    expect(oldLink.status).toBe(410);
    expect(read.status).toBe(200);
    expect(read.body.data.downloadable).toBe(false);
  });
});
