import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentListData } from '../../machines/rules/submission';
import { draftDocuments, drafts } from '../../drizzle/schema';
import {
  type PdfBytes,
  SIZES_PT,
  a5Landscape,
  bigPdf,
  empty,
  encrypted,
  landscapeA3,
  landscapeA4,
  mixed,
  notPdf,
  pdfWithPages,
  portraitA4,
  rotatedLandscapeA4,
  rotatedPortraitA4,
  truncated,
} from '../support/pdf-corpus';
import {
  type ApplicationHarness,
  type DraftState,
  draftPath,
  startApplicationHarness,
} from './application-harness';

/**
 * Uploading the supporting documents of a draft (POST/GET/DELETE /api/drafts/:no/documents): real
 * multipart bodies over HTTP, a real storage directory and Postgres. Limits are the harness's small ones
 * (256 KiB a file, 384 KiB an application).
 */

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness();
});

afterAll(async () => {
  await h?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const KIB = 1024;

const list = (draft: DraftState, token = draft.token) =>
  h.call<DocumentListData>('GET', `${draftPath(draft.applicationNo)}/documents`, { token });
const remove = (draft: DraftState, type: string, token = draft.token) =>
  h.call('DELETE', `${draftPath(draft.applicationNo)}/documents/${type}`, { token });

/** The document rows of a draft in the database. */
async function rowsOf(draft: DraftState) {
  return h.database.db
    .select({ documentType: draftDocuments.documentType, storageKey: draftDocuments.storageKey })
    .from(draftDocuments)
    .innerJoin(drafts, eq(drafts.id, draftDocuments.draftId))
    .where(eq(drafts.applicationNo, draft.applicationNo));
}

async function storageKeyOf(draft: DraftState, type: string): Promise<string> {
  const [row] = await h.database.db
    .select({ storageKey: draftDocuments.storageKey })
    .from(draftDocuments)
    .innerJoin(drafts, eq(drafts.id, draftDocuments.draftId))
    .where(and(eq(drafts.applicationNo, draft.applicationNo), eq(draftDocuments.documentType, type)));
  if (!row) throw new Error(`no ${type} row`);
  return row.storageKey;
}

describe('uploading a document', () => {
  it('accepts a landscape A4 PDF, stores its bytes and records its SHA-256, size and page count', async () => {
    const draft = await h.newDraft();
    const pdf = await landscapeA4();
    const before = await h.storedFiles();

    const res = await h.upload(draft, 'layoutPlans', pdf, 'layout plans.pdf');
    const key = await storageKeyOf(draft, 'layoutPlans');

    expect(res.status).toBe(201);
    expect(res.body.meta).toEqual({ code: '200', message: 'The document has been uploaded.' });
    expect(res.body.data).toEqual({
      id: expect.any(Number) as unknown,
      documentType: 'layoutPlans',
      fileName: 'layout plans.pdf',
      bytes: pdf.length,
      sha256: sha256(pdf),
      pageCount: 1,
      uploadedAt: h.clock.now().toISOString(),
    });
    expect(await h.storedFiles()).toEqual([...before, key].sort());
    expect(sha256(await readFile(path.join(h.storageDir, key)))).toBe(sha256(pdf));
  });

  it.each<[string, () => Promise<PdfBytes>, number]>([
    ['a landscape A3 page', landscapeA3, 1],
    ['a portrait A4 page turned by /Rotate 90', rotatedPortraitA4, 1],
    [
      'landscape A4 and A3 pages mixed',
      () =>
        pdfWithPages([
          { width: SIZES_PT.A4.width, height: SIZES_PT.A4.height },
          { width: SIZES_PT.A3.width, height: SIZES_PT.A3.height },
          { width: SIZES_PT.A4.width, height: SIZES_PT.A4.height },
        ]),
      3,
    ],
  ])('accepts %s and counts its pages', async (_name, make, pages) => {
    const draft = await h.newDraft();
    const pdf = await make();

    const res = await h.upload(draft, 'locationPlan', pdf, 'plan.pdf');

    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ bytes: pdf.length, sha256: sha256(pdf), pageCount: pages });
  });

  it('keeps a file name in Chinese as the browser sent it', async () => {
    const draft = await h.newDraft();

    const res = await h.upload(draft, 'layoutPlans', await landscapeA4(), '平面圖（第2版）.pdf');
    const listed = await list(draft);

    expect(res.status).toBe(201);
    expect(res.body.data.fileName).toBe('平面圖（第2版）.pdf');
    expect(listed.body.data.documents[0]?.fileName).toBe('平面圖（第2版）.pdf');
  });

  it('lists the documents in the form’s order with the required types still missing', async () => {
    const draft = await h.newDraft();
    const first = await list(draft);
    await h.upload(draft, 'occupancyProof', await landscapeA4(), 'lease.pdf');
    await h.upload(draft, 'locationPlan', await landscapeA4(), 'location.pdf');
    const second = await list(draft);
    await h.upload(draft, 'layoutPlans', await landscapeA4(), 'layout.pdf');
    const third = await list(draft);

    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      documents: [],
      missing: ['layoutPlans', 'locationPlan'],
      limits: h.limits,
      totalBytes: 0,
    });
    expect(second.body.data.missing).toEqual(['layoutPlans']);
    expect(second.body.data.documents.map((d) => d.documentType)).toEqual(['locationPlan', 'occupancyProof']);
    expect(third.body.data.missing).toEqual([]);
    expect(third.body.data.documents.map((d) => d.documentType)).toEqual([
      'layoutPlans',
      'locationPlan',
      'occupancyProof',
    ]);
    expect(third.body.data.totalBytes).toBe(third.body.data.documents.reduce((s, d) => s + d.bytes, 0));
  });
});

describe('refusing a file that is not a landscape A4 or A3 PDF', () => {
  const cases: {
    what: string;
    make: () => Promise<PdfBytes>;
    name: string;
    reason: string;
    page: number | null;
    en: string;
    tc: string;
  }[] = [
    {
      what: 'a portrait page',
      make: portraitA4,
      name: 'portrait.pdf',
      reason: 'portrait',
      page: 1,
      en: 'Page 1 of "portrait.pdf" is in portrait. Uploaded PDFs must be landscape and in A4 or A3 format.',
      tc: '「portrait.pdf」第 1 頁為直向。上載的 PDF 必須為橫向 A4 或 A3 尺寸。',
    },
    {
      what: 'a landscape page turned upright by /Rotate',
      make: rotatedLandscapeA4,
      name: 'rotated.pdf',
      reason: 'portrait',
      page: 1,
      en: 'Page 1 of "rotated.pdf" is in portrait. Uploaded PDFs must be landscape and in A4 or A3 format.',
      tc: '「rotated.pdf」第 1 頁為直向。上載的 PDF 必須為橫向 A4 或 A3 尺寸。',
    },
    {
      what: 'a portrait third page after two landscape ones',
      make: mixed,
      name: 'mixed.pdf',
      reason: 'portrait',
      page: 3,
      en: 'Page 3 of "mixed.pdf" is in portrait. Uploaded PDFs must be landscape and in A4 or A3 format.',
      tc: '「mixed.pdf」第 3 頁為直向。上載的 PDF 必須為橫向 A4 或 A3 尺寸。',
    },
    {
      what: 'an A5 page',
      make: a5Landscape,
      name: 'a5.pdf',
      reason: 'size',
      page: 1,
      en: 'Page 1 of "a5.pdf" is 210 × 148 mm. Uploaded PDFs must be landscape and in A4 or A3 format.',
      tc: '「a5.pdf」第 1 頁的尺寸為 210 × 148 毫米。上載的 PDF 必須為橫向 A4 或 A3 尺寸。',
    },
    {
      what: 'an encrypted PDF',
      make: encrypted,
      name: 'secret.pdf',
      reason: 'encrypted',
      page: null,
      en: '"secret.pdf" is protected by a password or encrypted. Please upload a copy without protection.',
      tc: '「secret.pdf」設有密碼保護或已加密，請上載沒有保護的版本。',
    },
    {
      what: 'a PDF cut in half',
      make: truncated,
      name: 'cut.pdf',
      reason: 'corrupt',
      page: null,
      en: '"cut.pdf" is damaged and cannot be opened. Please save it again as PDF and upload it.',
      tc: '「cut.pdf」已損壞，無法開啟。請重新儲存為 PDF 後再上載。',
    },
    {
      what: 'a PNG image',
      make: notPdf,
      name: 'photo.png',
      reason: 'not-pdf',
      page: null,
      en: '"photo.png" is not a PDF file. Only PDF files are accepted.',
      tc: '「photo.png」不是 PDF 檔案。只接受 PDF 檔案。',
    },
    {
      what: 'an empty file',
      make: empty,
      name: 'empty.pdf',
      reason: 'empty',
      page: null,
      en: '"empty.pdf" is empty. Please choose the PDF file again.',
      tc: '「empty.pdf」是空白檔案，請重新選擇 PDF 檔案。',
    },
  ];

  it.each(cases)(
    'answers $what with 422 DOCUMENT_INVALID ($reason), in English and Chinese, and keeps nothing',
    async ({ make, name, reason, page, en, tc }) => {
      const draft = await h.newDraft();
      const pdf = await make();
      const before = await h.storedFiles();

      const english = await h.upload(draft, 'layoutPlans', pdf, name);
      const chinese = await h.upload(draft, 'layoutPlans', pdf, name, '?lang=tc');

      expect(english.status).toBe(422);
      expect(english.body).toEqual({
        meta: { code: 'DOCUMENT_INVALID', message: en },
        data: { reason, page, fileName: name },
      });
      expect(chinese.status).toBe(422);
      expect(chinese.body.meta.message).toBe(tc);
      expect(await h.storedFiles()).toEqual(before);
      expect(await rowsOf(draft)).toEqual([]);
    },
  );
});

describe('refusing an upload that is not a document of the form', () => {
  it('answers 400 without a document type and keeps no file', async () => {
    const draft = await h.newDraft();
    const before = await h.storedFiles();

    const res = await h.upload(draft, undefined, await landscapeA4(), 'plans.pdf');

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      meta: { code: 'BAD_REQUEST', message: 'Choose the type of document before uploading the file.' },
      data: {
        errors: [{ path: 'documentType', message: 'Choose the type of document before uploading the file.' }],
      },
    });
    expect(await h.storedFiles()).toEqual(before);
    expect(await rowsOf(draft)).toEqual([]);
  });

  it('answers 400 for a type the form does not ask for, and keeps no file', async () => {
    const draft = await h.newDraft();
    const before = await h.storedFiles();

    const res = await h.upload(draft, 'passportPhoto', await landscapeA4(), 'plans.pdf');

    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('BAD_REQUEST');
    expect(await h.storedFiles()).toEqual(before);
    expect(await rowsOf(draft)).toEqual([]);
  });

  it('answers 400 for a multipart body without a file', async () => {
    const draft = await h.newDraft();
    const form = new FormData();
    form.append('documentType', 'layoutPlans');

    const res = await h.call('POST', `${draftPath(draft.applicationNo)}/documents`, {
      token: draft.token,
      body: form,
    });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      meta: { code: 'BAD_REQUEST', message: 'Choose a PDF file to upload.' },
      data: { errors: [{ path: 'file', message: 'Choose a PDF file to upload.' }] },
    });
  });

  it('answers 415 for a body that is not multipart', async () => {
    const draft = await h.newDraft();

    const res = await h.call('POST', `${draftPath(draft.applicationNo)}/documents`, {
      token: draft.token,
      body: { documentType: 'layoutPlans', file: 'JVBERi0xLjcK' },
    });

    expect(res.status).toBe(415);
    expect(res.body.meta.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await rowsOf(draft)).toEqual([]);
  });
});

describe('the size limits', () => {
  it('stops a file over the file limit with 413 and removes what was written', async () => {
    const draft = await h.newDraft();
    const big = await bigPdf({ pages: 2, bytes: h.limits.maxFileBytes + 64 * KIB });
    const before = await h.storedFiles();

    const res = await h.upload(draft, 'layoutPlans', big, 'big.pdf');

    expect(big.length).toBeGreaterThan(h.limits.maxFileBytes);
    expect(res.status).toBe(413);
    expect(res.body.meta.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.meta.message).toBe('The file is too large: each file can be at most 0.3 MB.');
    expect(res.body.data).toEqual({ limit: 'file', maxBytes: h.limits.maxFileBytes });
    expect(await h.storedFiles()).toEqual(before);
    expect(await rowsOf(draft)).toEqual([]);
  });

  it('accepts a file just under the file limit', async () => {
    const draft = await h.newDraft();
    const big = await bigPdf({ pages: 1, bytes: h.limits.maxFileBytes });

    const res = await h.upload(draft, 'layoutPlans', big, 'big.pdf');

    expect(res.status).toBe(201);
    expect(res.body.data.bytes).toBe(big.length);
  });

  it('answers 413 when a document would take the application past its total, and keeps the others', async () => {
    const draft = await h.newDraft();
    const first = await bigPdf({ pages: 1, bytes: 200 * KIB });
    const second = await bigPdf({ pages: 1, bytes: 200 * KIB });
    await h.upload(draft, 'layoutPlans', first, 'first.pdf');
    const before = await h.storedFiles();

    const res = await h.upload(draft, 'locationPlan', second, 'second.pdf');
    const after = await list(draft);

    expect(first.length + second.length).toBeGreaterThan(h.limits.maxTotalBytes);
    expect(res.status).toBe(413);
    expect(res.body.meta.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.data).toEqual({ limit: 'total', maxBytes: h.limits.maxTotalBytes });
    expect(res.body.meta.message).toContain('can be at most 0.4 MB together');
    expect(after.body.data.documents.map((d) => d.documentType)).toEqual(['layoutPlans']);
    expect(after.body.data.totalBytes).toBe(first.length);
    expect(await h.storedFiles()).toEqual(before);
  });

  it('stops a file while streaming once it passes what the application has left', async () => {
    const draft = await h.newDraft();
    await h.upload(draft, 'layoutPlans', await bigPdf({ pages: 1, bytes: 200 * KIB }), 'a.pdf');
    await h.upload(draft, 'locationPlan', await bigPdf({ pages: 1, bytes: 150 * KIB }), 'b.pdf');
    const third = await bigPdf({ pages: 1, bytes: 250 * KIB });
    const before = await h.storedFiles();

    const res = await h.upload(draft, 'occupancyProof', third, 'c.pdf');

    expect(third.length).toBeLessThan(h.limits.maxFileBytes);
    expect(res.status).toBe(413);
    expect(res.body.data).toEqual({ limit: 'total', maxBytes: h.limits.maxTotalBytes });
    expect(await h.storedFiles()).toEqual(before);
    expect((await rowsOf(draft)).map((r) => r.documentType).sort()).toEqual(['layoutPlans', 'locationPlan']);
  });

  it('lets a replacement use the room of the file it replaces', async () => {
    const draft = await h.newDraft();
    await h.upload(draft, 'layoutPlans', await bigPdf({ pages: 1, bytes: 200 * KIB }), 'a.pdf');
    await h.upload(draft, 'locationPlan', await bigPdf({ pages: 1, bytes: 150 * KIB }), 'b.pdf');
    const replacement = await bigPdf({ pages: 1, bytes: 220 * KIB });

    const res = await h.upload(draft, 'layoutPlans', replacement, 'a2.pdf');

    expect(res.status).toBe(201);
    expect((await list(draft)).body.data.totalBytes).toBeLessThanOrEqual(h.limits.maxTotalBytes);
  });
});

describe('replacing and deleting a document', () => {
  it('keeps one document per type: a second upload replaces the first and its file goes', async () => {
    const draft = await h.newDraft();
    const first = await landscapeA4();
    const second = await landscapeA3();
    await h.upload(draft, 'layoutPlans', first, 'v1.pdf');
    const oldKey = await storageKeyOf(draft, 'layoutPlans');

    const res = await h.upload(draft, 'layoutPlans', second, 'v2.pdf');
    const newKey = await storageKeyOf(draft, 'layoutPlans');
    const listed = await list(draft);
    const files = await h.storedFiles();

    expect(res.status).toBe(201);
    expect(await rowsOf(draft)).toHaveLength(1);
    expect(listed.body.data.documents).toEqual([
      expect.objectContaining({ fileName: 'v2.pdf', sha256: sha256(second) }) as unknown,
    ]);
    expect(newKey).not.toBe(oldKey);
    expect(files).toContain(newKey);
    expect(files).not.toContain(oldKey);
  });

  it('keeps the file of a replaced or deleted document that a signing froze', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    const layout = await storageKeyOf(draft, 'layoutPlans');
    const location = await storageKeyOf(draft, 'locationPlan');

    const replaced = await h.upload(draft, 'layoutPlans', await landscapeA3(), 'v2.pdf');
    const deleted = await remove(draft, 'locationPlan');
    const files = await h.storedFiles();

    expect(replaced.status).toBe(201);
    expect(deleted.status).toBe(204);
    expect(files).toContain(layout);
    expect(files).toContain(location);
  });

  it('deletes a document with 204, removes its file and lists its type as missing again', async () => {
    const draft = await h.newDraft();
    await h.upload(draft, 'layoutPlans', await landscapeA4(), 'plans.pdf');
    const key = await storageKeyOf(draft, 'layoutPlans');

    const res = await remove(draft, 'layoutPlans');
    const again = await remove(draft, 'layoutPlans');
    const listed = await list(draft);

    expect(res.status).toBe(204);
    expect(await h.storedFiles()).not.toContain(key);
    expect(listed.body.data.documents).toEqual([]);
    expect(listed.body.data.missing).toEqual(['layoutPlans', 'locationPlan']);
    expect(again.status).toBe(404);
    expect(again.body.meta).toEqual({
      code: 'NOT_FOUND',
      message: 'There is no uploaded document of this type.',
    });
  });
});

describe('who may upload', () => {
  it('refuses another draft’s token with 403 and no token with 401, storing nothing', async () => {
    const mine = await h.newDraft();
    const other = await h.newDraft();
    await h.upload(mine, 'layoutPlans', await landscapeA4(), 'mine.pdf');
    const before = await h.storedFiles();

    const upload = await h.upload({ ...mine, token: other.token }, 'locationPlan', await landscapeA4());
    const anonymous = await h.upload({ ...mine, token: '' }, 'locationPlan', await landscapeA4());
    const read = await list(mine, other.token);
    const deleted = await remove(mine, 'layoutPlans', other.token);
    const readAnonymous = await h.call('GET', `${draftPath(mine.applicationNo)}/documents`);

    expect(upload.status).toBe(403);
    expect(upload.body.meta.code).toBe('FORBIDDEN');
    expect(anonymous.status).toBe(401);
    expect(read.status).toBe(403);
    expect(deleted.status).toBe(403);
    expect(readAnonymous.status).toBe(401);
    expect(await h.storedFiles()).toEqual(before);
    expect((await rowsOf(mine)).map((r) => r.documentType)).toEqual(['layoutPlans']);
  });

  it('answers 409 DRAFT_SUBMITTED to an upload or a delete once the application is submitted', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    expect((await h.submit(draft)).status).toBe(200);
    const before = await h.storedFiles();

    const upload = await h.upload(draft, 'occupancyProof', await landscapeA4(), 'late.pdf');
    const deleted = await remove(draft, 'layoutPlans');

    expect(upload.status).toBe(409);
    expect(upload.body.meta.code).toBe('DRAFT_SUBMITTED');
    expect(deleted.status).toBe(409);
    expect(deleted.body.meta.code).toBe('DRAFT_SUBMITTED');
    expect(await h.storedFiles()).toEqual(before);
    expect((await rowsOf(draft)).map((r) => r.documentType).sort()).toEqual(['layoutPlans', 'locationPlan']);
  });
});
