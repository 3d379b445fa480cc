import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfCheckPool, type PdfChecker } from '../../api/modules/shared/uploads/pdf-check-pool';
import { landscapeA4 } from '../support/pdf-corpus';
import { objectStreamHeavy } from '../support/pdf-hostile';
import type { EnvelopeBody } from '../support/http';
import {
  type ApplicationHarness,
  type DraftState,
  draftPath,
  startApplicationHarness,
} from './application-harness';

/**
 * The PDF check's queue is fair (docs/decisions/010-pdf-check-pool.md): its time limit counts only the
 * time a worker spends on the file, not the time it waited, and one caller (an address) has one file in
 * the workers at a time, its others waiting their turn (429 past a few). So three heavy files from one
 * address do not make a 1 KB PDF from another address fail as "too complex". The second address is real:
 * the test connects from 127.0.0.2 (all of 127/8 is this machine on Linux).
 */

let h: ApplicationHarness;
let checker: PdfChecker;
// About 250 KB (under the harness's 256 KiB limit) of 27,000 small objects in object streams: seconds
// to parse, past the 1 s limit below, so each holds the one worker for the whole second.
const heavy = objectStreamHeavy(27_000);

beforeAll(async () => {
  checker = createPdfCheckPool({ threads: 1, timeoutSeconds: 1, callerQueue: 2 });
  h = await startApplicationHarness({ checker });
});

afterAll(async () => {
  await h?.close();
  await checker?.close();
});

/** An upload of the draft's document sent from `localAddress`: the answer and how long it took. */
async function uploadFrom(
  localAddress: string,
  draft: DraftState,
  content: Uint8Array,
  lang = 'en',
): Promise<{ status: number; body: EnvelopeBody; ms: number; retryAfter?: string }> {
  const form = new FormData();
  form.append('documentType', 'layoutPlans');
  form.append('file', new Blob([content.slice()], { type: 'application/pdf' }), 'plan.pdf');
  const encoded = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(`${h.baseUrl}${draftPath(draft.applicationNo)}/documents?lang=${lang}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: {
          authorization: `Bearer ${draft.token}`,
          'content-type': encoded.headers.get('content-type') ?? '',
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as EnvelopeBody,
            ms: performance.now() - started,
            retryAfter: res.headers['retry-after'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the PDF check queue', () => {
  it('checks a 1 KB PDF from one address while three heavy files from another wait their turn', async () => {
    const [a1, a2, a3, b] = await Promise.all([h.newDraft(), h.newDraft(), h.newDraft(), h.newDraft()]);
    const heavyUploads = [a1, a2, a3].map((draft) => uploadFrom('127.0.0.1', draft, heavy));
    await new Promise((r) => setTimeout(r, 200)); // the heavy files are in first

    const small = await uploadFrom('127.0.0.2', b, await landscapeA4());
    const heavyAnswers = await Promise.all(heavyUploads);

    console.info(
      `1 KB PDF from 127.0.0.2: ${small.status} ${JSON.stringify(small.body.meta)} in ${small.ms.toFixed(0)} ms; ` +
        `heavy (${heavy.length} bytes) from 127.0.0.1: ` +
        heavyAnswers
          .map(
            (a) =>
              `${a.status} ${String((a.body.data as { reason?: string })?.reason ?? '')} ${a.ms.toFixed(0)} ms`,
          )
          .join(', '),
    );
    expect(small.status).toBe(201);
  });

  it('answers 429 with Retry-After, in three languages, to an address with too many files waiting', async () => {
    const drafts = await Promise.all([1, 2, 3, 4].map(() => h.newDraft()));
    // One in the worker, two waiting (callerQueue 2), the fourth refused.
    const first = drafts.slice(0, 3).map((draft) => uploadFrom('127.0.0.3', draft, heavy));
    await new Promise((r) => setTimeout(r, 200));

    const answers = await Promise.all(
      ['en', 'tc', 'sc'].map((lang) => uploadFrom('127.0.0.3', drafts[3]!, heavy, lang)),
    );
    await Promise.all(first);

    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(answer.body.meta.code).toBe('RATE_LIMITED');
      expect(answer.retryAfter).toBe('5');
    }
    expect(answers.map((a) => a.body.meta.message)).toEqual([
      'Your earlier documents are still being checked. Please wait for them, then try again in a few seconds.',
      '你較早前上載的文件仍在檢查中。請待檢查完成，於數秒後再試。',
      '你较早前上载的文件仍在检查中。请待检查完成，于数秒后再试。',
    ]);
  });
});
