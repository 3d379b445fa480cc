import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfCheckPool, type PdfChecker } from '../../api/modules/shared/uploads/pdf-check-pool';
import { bigPdf, landscapeA4, objectStreamBomb } from '../support/pdf-corpus';
import { type ApplicationHarness, startApplicationHarness } from './application-harness';

/**
 * The PDF check runs in worker threads with limits (api/modules/shared/uploads/pdf-check-pool.ts): a decompression
 * bomb is refused as too complex while the API goes on answering; so is a file past the time limit.
 * The figure for a 1 GiB bomb is measured by `npx tsx tests/bench/pdf-bomb.ts` (docs/operations.md).
 */

let h: ApplicationHarness;
let bomb: Uint8Array;

beforeAll(async () => {
  h = await startApplicationHarness();
  // 200 MiB of spaces in an object stream, about 205 KB on disk (under the harness's 256 KiB file limit).
  bomb = objectStreamBomb(200);
});

afterAll(async () => {
  await h?.close();
});

/** GET /api/health, one after the other, until `until` settles; the latencies in ms. */
async function healthLatencies(until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const start = performance.now();
    const res = await fetch(`${h.baseUrl}/api/health`);
    await res.arrayBuffer();
    latencies.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 10));
  }
  return latencies;
}

describe('a decompression bomb', () => {
  it('is refused with 422 too-complex, in English and Chinese', async () => {
    const draft = await h.newDraft();

    const en = await h.upload(draft, 'layoutPlans', bomb, 'bomb.pdf');
    const tc = await h.upload(draft, 'layoutPlans', bomb, 'bomb.pdf', '?lang=tc');

    expect(en.status).toBe(422);
    expect(en.body.meta.code).toBe('DOCUMENT_INVALID');
    expect(en.body.data).toMatchObject({ reason: 'too-complex', fileName: 'bomb.pdf' });
    expect(en.body.meta.message).toContain('"bomb.pdf" is too complex to check');
    expect(tc.body.meta.message).toContain('「bomb.pdf」過於複雜');
    expect(
      await h.call('GET', `/api/drafts/${draft.applicationNo}/documents`, { token: draft.token }),
    ).toMatchObject({
      body: { data: { documents: [] } },
    });
  });

  it('leaves the API answering while it is checked', async () => {
    const draft = await h.newDraft();
    const upload = h.upload(draft, 'layoutPlans', bomb, 'bomb.pdf');

    const latencies = await healthLatencies(upload);

    expect((await upload).status).toBe(422);
    const max = Math.max(...latencies);
    console.info(`health during the bomb's check: ${latencies.length} answers, max ${max.toFixed(1)} ms`);
    // Generous: the check's worker holds one of two shared cores; the in-process check blocked for seconds.
    expect(max).toBeLessThan(3000);
  });

  it('is followed by good files as usual (the worker that refused it is still of use)', async () => {
    const draft = await h.newDraft();
    await h.upload(draft, 'layoutPlans', bomb, 'bomb.pdf');

    const res = await h.upload(draft, 'layoutPlans', await landscapeA4(), 'plan.pdf');

    expect(res.status).toBe(201);
  });
});

describe('the time limit', () => {
  let slow: ApplicationHarness;
  let checker: PdfChecker;

  beforeAll(async () => {
    // 1 ms: no real file is checked that fast, so every check passes the limit.
    checker = createPdfCheckPool({ timeoutSeconds: 0.001, threads: 1 });
    slow = await startApplicationHarness({ checker });
  });

  afterAll(async () => {
    await slow?.close();
    await checker?.close();
  });

  it('refuses a file still being checked when the time is up, and the next check still runs', async () => {
    const draft = await slow.newDraft();

    const res = await slow.upload(
      draft,
      'layoutPlans',
      await bigPdf({ pages: 40, bytes: 200 * 1024 }),
      'big.pdf',
    );

    expect(res.status).toBe(422);
    expect(res.body.data).toMatchObject({ reason: 'too-complex' });
  });
});
