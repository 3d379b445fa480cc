import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentStorageFromEnv } from '../../api/adapters/document-storage';
import type { DocumentStorage } from '../../api/adapters/storage';
import { purgeExpiredDrafts } from '../../api/modules/applications/drafts-purge';
import { bigPdf, uniqueLandscapeA4 } from '../support/pdf-corpus';
import { type S3Server, startS3Server } from '../support/s3-server';
import { type ApplicationHarness, draftPath, startApplicationHarness } from './application-harness';

/**
 * The documents of a draft kept in an S3 bucket (s3rver, a process of its own) instead of a directory:
 * the whole API over `DOCUMENT_STORAGE=s3` — an upload lands in the bucket as sent, one over its limit
 * leaves nothing there, removing a document and purging an expired draft delete their objects
 * (docs/decisions/042-shared-document-storage.md).
 */
const KIB = 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: S3Server;
let storage: DocumentStorage;
let h: ApplicationHarness;

beforeAll(async () => {
  s3 = await startS3Server();
  storage = documentStorageFromEnv('unused', s3.env);
  h = await startApplicationHarness({ wrapStorage: () => storage });
});

afterAll(async () => {
  await h?.close();
  await s3?.stop();
});

const objects = async () => ((await storage.entries?.()) ?? []).map((e) => e.name).sort();

async function bytesOf(key: string): Promise<Uint8Array> {
  return Buffer.concat(await storage.get(key).toArray());
}

describe('documents in an S3 bucket, through the API', () => {
  it('stores an upload in the bucket as sent, and removing the document deletes its object', async () => {
    const draft = await h.newDraft();
    const content = await uniqueLandscapeA4();
    const before = await objects();

    const res = await h.upload(draft, 'layoutPlans', content, 'plan.pdf');
    const added = (await objects()).filter((k) => !before.includes(k));

    expect(res.status).toBe(201);
    expect(res.body.data.sha256).toBe(sha256(content));
    expect(added).toHaveLength(1);
    expect(sha256(await bytesOf(added[0] ?? ''))).toBe(sha256(content));

    const removed = await h.call('DELETE', `${draftPath(draft.applicationNo)}/documents/layoutPlans`, {
      token: draft.token,
    });
    expect(removed.status).toBe(204);
    expect(await objects()).toEqual(before);
  });

  it('stops a file over the limit with 413 and leaves no object', async () => {
    const draft = await h.newDraft();
    const big = await bigPdf({ pages: 2, bytes: h.limits.maxFileBytes + 64 * KIB });
    const before = await objects();

    const res = await h.upload(draft, 'layoutPlans', big, 'big.pdf');

    expect(res.status).toBe(413);
    expect(res.body.meta.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await objects()).toEqual(before);
  });

  it("purging an expired draft deletes its documents' objects", async () => {
    const draft = await h.newDraft();
    const before = await objects();
    expect((await h.upload(draft, 'layoutPlans', await uniqueLandscapeA4(), 'plan.pdf')).status).toBe(201);
    expect(await objects()).toHaveLength(before.length + 1);

    const later = new Date(h.clock.now().getTime() + 60 * 24 * 3_600_000);
    expect(await purgeExpiredDrafts(h.database.db, later, storage)).toBeGreaterThanOrEqual(1);

    expect(await objects()).toEqual([]);
  });
});
