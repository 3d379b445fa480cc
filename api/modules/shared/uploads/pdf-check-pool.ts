import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { PdfCheckResult } from './pdf-check';

/**
 * The PDF check (pdf-check.ts) off the event loop: a pool of worker threads (piscina) in which each file
 * is parsed with limits, so that a hostile file costs one worker, never the process:
 * - memory: the worker's V8 heap (`resourceLimits`), and what pdf-lib may inflate (pdf-decode-limit.ts:
 *   one stream, and all of a file's streams together) — inflated bytes live outside the heap;
 * - time: a file still being checked after `timeoutMs` is abandoned and its worker terminated.
 * A file past a limit is answered `too-complex` (422 with a clear message); a full queue is `busy` (503,
 * try again). Decisions: docs/decisions/010-pdf-check-pool.md.
 */
export interface PdfCheckLimits {
  /** The V8 heap of one worker, in MB (resourceLimits.maxOldGenerationSizeMb). Default 256. */
  heapMb: number;
  /** What one stream of the file may inflate to, in MB. Default 64. */
  streamMb: number;
  /** What all streams of the file together may inflate to, in MB. Default 256. */
  totalMb: number;
  /** The longest one file may take, in seconds. Default 20. */
  timeoutSeconds: number;
  /** Worker threads. Default: the cores less one, at least 1, at most 4. */
  threads: number;
  /** Files waiting for a worker before the next is answered `busy`. Default 16. */
  maxQueue: number;
}

export const DEFAULT_PDF_CHECK_LIMITS: PdfCheckLimits = {
  heapMb: 256,
  streamMb: 64,
  totalMb: 256,
  timeoutSeconds: 20,
  threads: Math.min(4, Math.max(1, availableParallelism() - 1)),
  maxQueue: 16,
};

export type PoolCheckResult =
  PdfCheckResult | { ok: false; reason: 'too-complex' } | { ok: false; reason: 'busy' };

export interface PdfChecker {
  readonly limits: PdfCheckLimits;
  check(bytes: Uint8Array): Promise<PoolCheckResult>;
  /** Stops the workers (server shutdown). */
  close(): Promise<void>;
}

const MB = 1024 * 1024;

export function createPdfCheckPool(overrides: Partial<PdfCheckLimits> = {}): PdfChecker {
  const limits = { ...DEFAULT_PDF_CHECK_LIMITS, ...overrides };
  const pool = new Piscina({
    filename: new URL('./pdf-check.worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: limits.threads,
    maxQueue: limits.maxQueue,
    // Workers stay a while (starting one costs about half a second), then go.
    idleTimeout: 60_000,
    resourceLimits: {
      maxOldGenerationSizeMb: limits.heapMb,
      maxYoungGenerationSizeMb: Math.max(8, Math.round(limits.heapMb / 8)),
    },
    workerData: { maxStreamBytes: limits.streamMb * MB, maxTotalBytes: limits.totalMb * MB },
  });
  let closed: Promise<void> | undefined;

  return {
    limits,
    async check(bytes) {
      if (pool.queueSize >= limits.maxQueue) return { ok: false, reason: 'busy' };
      try {
        return (await pool.run(
          { bytes },
          { signal: AbortSignal.timeout(limits.timeoutSeconds * 1000) },
        )) as PoolCheckResult;
      } catch (error) {
        // Aborted at the time limit (the worker is terminated), or the worker ran out of its heap.
        const code = (error as { code?: unknown; name?: unknown }).code;
        const name = (error as { name?: unknown }).name;
        if (name === 'AbortError' || code === 'ERR_WORKER_OUT_OF_MEMORY') {
          return { ok: false, reason: 'too-complex' };
        }
        if (/queue is at limit/i.test(String((error as Error).message))) return { ok: false, reason: 'busy' };
        throw error;
      }
    },
    close() {
      closed ??= pool.destroy();
      return closed;
    },
  };
}
