import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { PdfCheckResult } from './pdf-check';
import { DEFAULT_MAX_PAGES } from './pdf-page-tree';

/**
 * The PDF check (pdf-check.ts) off the event loop: a pool of worker threads (piscina) in which each file
 * is parsed with limits, so that a hostile file costs one worker, never the process:
 * - memory: the worker's V8 heap (`resourceLimits`), and what pdf-lib may inflate (pdf-decode-limit.ts:
 *   one stream, and all of a file's streams together) — inflated bytes live outside the heap;
 * - time: a file still being checked `timeoutSeconds` after a worker took it up is abandoned and its
 *   worker terminated; the time it waited for a worker does not count;
 * - callers: one caller (an address: checked-upload.ts) has at most one file in the workers at a time; its
 *   next files wait their turn outside the pool (at most `callerQueue`, then `caller-busy`: 429), so three
 *   heavy files from one address cannot hold every worker while a small file from another waits.
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
  /** Files of one caller waiting behind its file being checked, before the next is `caller-busy`. Default 8. */
  callerQueue: number;
  /** The most pages a file may have (env PDF_CHECK_MAX_PAGES). Default 500. */
  maxPages: number;
}

export const DEFAULT_PDF_CHECK_LIMITS: PdfCheckLimits = {
  heapMb: 256,
  streamMb: 64,
  totalMb: 256,
  timeoutSeconds: 20,
  threads: Math.min(4, Math.max(1, availableParallelism() - 1)),
  maxQueue: 16,
  callerQueue: 8,
  maxPages: DEFAULT_MAX_PAGES,
};

export type PoolCheckResult =
  PdfCheckResult | { ok: false; reason: 'busy' } | { ok: false; reason: 'caller-busy' };

/** The file, or how to read it once its turn comes (so files waiting their turn hold no memory). */
export type PdfSource = Uint8Array | (() => Promise<Uint8Array>);

export interface PdfChecker {
  readonly limits: PdfCheckLimits;
  /** Checks one file; `caller` (default: one shared caller) says whose turn it takes. */
  check(source: PdfSource, caller?: string): Promise<PoolCheckResult>;
  /** Stops the workers (server shutdown). */
  close(): Promise<void>;
}

const MB = 1024 * 1024;

/**
 * One file at a time per caller: `enter` resolves when the caller's turn comes ('full' when too many of its
 * files wait already), `leave` hands the turn to its next file.
 */
function callerTurns(maxWaiting: number) {
  const lanes = new Map<string, (() => void)[]>();
  return {
    async enter(caller: string): Promise<'entered' | 'full'> {
      const waiting = lanes.get(caller);
      if (!waiting) {
        lanes.set(caller, []);
        return 'entered';
      }
      if (waiting.length >= maxWaiting) return 'full';
      await new Promise<void>((resolve) => waiting.push(resolve));
      return 'entered';
    },
    leave(caller: string): void {
      const next = lanes.get(caller)?.shift();
      if (next) next();
      else lanes.delete(caller);
    },
  };
}

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
    workerData: {
      maxStreamBytes: limits.streamMb * MB,
      maxTotalBytes: limits.totalMb * MB,
      maxPages: limits.maxPages,
    },
  });
  const turns = callerTurns(limits.callerQueue);
  let closed: Promise<void> | undefined;

  /** One file in the pool; the time limit starts when a worker takes it up (it says so on `started`). */
  async function run(bytes: Uint8Array): Promise<PoolCheckResult> {
    if (pool.queueSize >= limits.maxQueue) return { ok: false, reason: 'busy' };
    const abort = new AbortController();
    const { port1: started, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    started.once('message', () => {
      timer = setTimeout(() => abort.abort(), limits.timeoutSeconds * 1000);
    });
    try {
      return (await pool.run(
        { bytes, started: port2 },
        { signal: abort.signal, transferList: [port2] },
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
    } finally {
      clearTimeout(timer);
      started.close();
    }
  }

  return {
    limits,
    async check(source, caller = '') {
      if ((await turns.enter(caller)) === 'full') return { ok: false, reason: 'caller-busy' };
      try {
        return await run(typeof source === 'function' ? await source() : source);
      } finally {
        turns.leave(caller);
      }
    },
    close() {
      closed ??= pool.destroy();
      return closed;
    },
  };
}
