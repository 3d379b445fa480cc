import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drafts, signingRequests } from '../../drizzle/schema';
import { type ApplicationHarness, draftPath, startApplicationHarness } from './application-harness';

/**
 * A signing start over unchanged answers and documents reuses the application PDF frozen before, rather
 * than storing a new one each time; a change of the answers (or of the language) freezes a new one.
 */

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness();
});

afterAll(async () => {
  await h?.close();
});

async function pdfKeysOf(applicationNo: string) {
  const rows = await h.database.db
    .select({ key: signingRequests.pdfStorageKey, sha: signingRequests.pdfSha256 })
    .from(signingRequests)
    .innerJoin(drafts, eq(drafts.id, signingRequests.draftId))
    .where(eq(drafts.applicationNo, applicationNo))
    .orderBy(signingRequests.id);
  return rows;
}

describe('starting a signing again', () => {
  it('stores the application PDF once for five iAM Smart starts over the same answers', async () => {
    const draft = await h.readyDraft();
    const before = (await h.storedFiles()).length;

    for (let i = 0; i < 5; i += 1) await h.startIamSmart(draft);

    const keys = await pdfKeysOf(draft.applicationNo);
    expect(keys).toHaveLength(5);
    expect(new Set(keys.map((k) => k.key)).size).toBe(1);
    expect((await h.storedFiles()).length).toBe(before + 1);
  });

  it('shares the PDF between an iAM Smart start and an e-Cert start', async () => {
    const draft = await h.readyDraft();
    await h.startIamSmart(draft);

    const ecert = await h.call('GET', `${draftPath(draft.applicationNo)}/signing/ecert`, {
      token: draft.token,
    });

    expect(ecert.status).toBe(200);
    const keys = await pdfKeysOf(draft.applicationNo);
    expect(new Set(keys.map((k) => k.key)).size).toBe(1);
  });

  it('freezes a new PDF when the answers changed', async () => {
    const draft = await h.readyDraft();
    await h.startIamSmart(draft);
    await h.save(draft, { ...draft.answers, applicantNameEn: 'CHEUNG Siu Ming' });

    await h.startIamSmart(draft);

    const keys = await pdfKeysOf(draft.applicationNo);
    expect(new Set(keys.map((k) => k.key)).size).toBe(2);
    expect(keys[0]?.sha).not.toBe(keys[1]?.sha);
  });

  it('freezes a new PDF in another language', async () => {
    const draft = await h.readyDraft();
    await h.startIamSmart(draft);

    const tc = await h.call('POST', `${draftPath(draft.applicationNo)}/signing/iamsmart?lang=tc`, {
      token: draft.token,
      body: {},
    });

    expect(tc.status).toBe(201);
    expect(new Set((await pdfKeysOf(draft.applicationNo)).map((k) => k.key)).size).toBe(2);
  });
});
