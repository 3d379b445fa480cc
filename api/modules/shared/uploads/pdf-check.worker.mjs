/**
 * The worker thread of the PDF check pool (api/modules/shared/uploads/pdf-check-pool.ts): runs `checkPdf` on one
 * file, with pdf-lib's decoding capped (pdf-decode-limit.ts). A plain ES module so that Node starts it
 * as it is; the check itself is TypeScript, loaded through tsx's API (the server runs under tsx, and
 * vitest gives worker threads no loader of its own).
 */
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call,
   @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return --
   a plain JS module: what tsx's API imports is untyped here; pdf-check.ts and pdf-decode-limit.ts are typed. */
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

const tsx = register({ namespace: 'pdf-check-worker' });
const { checkPdf } = await tsx.import('./pdf-check.ts', import.meta.url);
const { limitPdfDecoding } = await tsx.import('./pdf-decode-limit.ts', import.meta.url);

// The lowest CPU priority for this thread (on Linux, nice is per thread: pid 0 is the calling thread), so
// that the event loop answering requests always comes first on a busy machine.
try {
  setPriority(19);
} catch {
  // not permitted here: the check runs at normal priority
}

const { maxStreamBytes, maxTotalBytes, maxPages } = workerData;
const limit = limitPdfDecoding(maxStreamBytes, maxTotalBytes);
// pdf-lib reports objects it skips on the console; the answer says all that matters.
console.log = () => {};
console.warn = () => {};

/**
 * @param {{ bytes: Uint8Array, started?: import('node:worker_threads').MessagePort }} task `started` hears
 * that this worker took the file up: the pool's time limit starts then, not while the file waited.
 */
export default async function check({ bytes, started }) {
  started?.postMessage('started');
  limit.reset();
  let result;
  try {
    result = await checkPdf(bytes, { maxStreamBytes, maxTotalBytes, maxPages });
  } catch (error) {
    if (!limit.exceeded) throw error;
  }
  return limit.exceeded ? { ok: false, reason: 'too-complex' } : result;
}
