import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftDocuments, drafts, signingRequests } from '../../drizzle/schema';
import { createPdfCheckPool, type PdfChecker } from '../../api/modules/shared/uploads/pdf-check-pool';
import { bigPdf } from '../support/pdf-corpus';
import { type ApplicationHarness, type DraftState, startApplicationHarness } from './application-harness';

/**
 * Parallel uploads to one draft are serialised by a lock on the draft's row in the transaction that
 * records them: the application's total holds (0 bytes over), and uploads of the same type replace each
 * other without a 500 or a file left behind. Limits: the harness's 256 KiB a file, 384 KiB an application.
 */

let h: ApplicationHarness;
let checker: PdfChecker;

beforeAll(async () => {
  // One worker per upload: the checks end together, and so the uploads race to be recorded.
  checker = createPdfCheckPool({ threads: 8, maxQueue: 32 });
  h = await startApplicationHarness({ checker });
});

afterAll(async () => {
  await h?.close();
  await checker?.close();
});

const KIB = 1024;

/** Files in the storage directory that no document row and no signing request refers to. */
async function orphans(): Promise<string[]> {
  const rows = await h.database.db.select({ key: draftDocuments.storageKey }).from(draftDocuments);
  const frozen = await h.database.db
    .select({ pdf: signingRequests.pdfStorageKey, documents: signingRequests.documents })
    .from(signingRequests);
  const known = new Set([
    ...rows.map((r) => r.key),
    ...frozen.flatMap((f) => [f.pdf, ...(f.documents as { storageKey: string }[]).map((d) => d.storageKey)]),
  ]);
  return (await h.storedFiles()).filter((name) => !known.has(name));
}

async function storedBytes(draft: DraftState): Promise<number> {
  const [row] = await h.database.db
    .select({ id: drafts.id })
    .from(drafts)
    .where(eq(drafts.applicationNo, draft.applicationNo));
  const docs = await h.database.db
    .select({ bytes: draftDocuments.bytes })
    .from(draftDocuments)
    .where(inArray(draftDocuments.draftId, [row?.id ?? -1]));
  return docs.reduce((sum, d) => sum + d.bytes, 0);
}

describe('parallel uploads of different types', () => {
  it('never store more than the application total (0 bytes over), the rest 413', async () => {
    const draft = await h.newDraft();
    const types = h.form.documents.map((d) => d.id);
    expect(types.length).toBeGreaterThanOrEqual(4);
    // Each 150 KiB: any two fit in 384 KiB, three do not.
    const file = await bigPdf({ pages: 2, bytes: 150 * KIB });

    const answers = await Promise.all(types.map((type) => h.upload(draft, type, file, `${type}.pdf`)));

    const accepted = answers.filter((a) => a.status === 201).length;
    const refused = answers.filter((a) => a.status === 413).length;
    const total = await storedBytes(draft);
    console.info(
      `${types.length} parallel uploads of ${file.length} bytes: ${accepted} accepted, ${refused} refused (413), ` +
        `${total} bytes stored of ${h.limits.maxTotalBytes}, ${Math.max(0, total - h.limits.maxTotalBytes)} over`,
    );
    expect(accepted + refused).toBe(types.length);
    expect(accepted).toBe(2);
    expect(total).toBeLessThanOrEqual(h.limits.maxTotalBytes);
    expect(await orphans()).toEqual([]);
  });
});

describe('parallel uploads of the same type', () => {
  it('replace each other: eight at once answer 201, one document is left and no file without a row', async () => {
    const draft = await h.newDraft();
    const files = await Promise.all(
      Array.from({ length: 8 }, (_, i) => bigPdf({ pages: 1, bytes: (60 + i) * KIB })),
    );

    const answers = await Promise.all(
      files.map((file, i) => h.upload(draft, 'layoutPlans', file, `plan-${i}.pdf`)),
    );

    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const [row] = await h.database.db
      .select({ id: drafts.id })
      .from(drafts)
      .where(eq(drafts.applicationNo, draft.applicationNo));
    const rows = await h.database.db
      .select()
      .from(draftDocuments)
      .where(eq(draftDocuments.draftId, row?.id ?? -1));
    expect(rows).toHaveLength(1);
    expect(await orphans()).toEqual([]);
  });
});
