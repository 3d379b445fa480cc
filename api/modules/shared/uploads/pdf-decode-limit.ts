import { createRequire } from 'node:module';

/**
 * A cap on what pdf-lib may inflate while it parses one file. pdf-lib decodes object streams (and only
 * those) while loading, into a buffer that doubles as it grows (its DecodeStream, after pdf.js). A 1 MB
 * object stream can inflate to 1 GiB, and that memory is outside the V8 heap, so a worker's
 * `resourceLimits` alone does not stop it. Here DecodeStream's `ensureBuffer` refuses to grow one stream
 * past `maxStreamBytes`, or all streams of the file together past `maxTotalBytes`, and the check answers
 * `too-complex`. Used only inside the PDF check's worker threads (pdf-check.worker.mjs).
 */

interface DecodeStreamPrototype {
  ensureBuffer: (this: object, requested: number) => Uint8Array;
}

export class DecodeLimitError extends Error {
  constructor() {
    super('PDF stream inflates past the limit');
    this.name = 'DecodeLimitError';
  }
}

export interface DecodeLimit {
  /** Whether the current file reached a limit (pdf-lib may swallow the error and carry on). */
  readonly exceeded: boolean;
  /** Starts counting for the next file. */
  reset(): void;
}

export function limitPdfDecoding(maxStreamBytes: number, maxTotalBytes: number): DecodeLimit {
  const require = createRequire(import.meta.url);
  const { default: DecodeStream } = require('pdf-lib/cjs/core/streams/DecodeStream') as {
    default: { prototype: DecodeStreamPrototype };
  };
  const original = DecodeStream.prototype.ensureBuffer;
  const sizes = new WeakMap<object, number>();
  let total = 0;
  let exceeded = false;
  DecodeStream.prototype.ensureBuffer = function ensureBuffer(this: object, requested: number) {
    const before = sizes.get(this) ?? 0;
    if (requested > before) {
      total += requested - before;
      sizes.set(this, requested);
    }
    if (requested > maxStreamBytes || total > maxTotalBytes) {
      exceeded = true;
      throw new DecodeLimitError();
    }
    return original.call(this, requested);
  };
  return {
    get exceeded() {
      return exceeded;
    },
    reset() {
      total = 0;
      exceeded = false;
    },
  };
}
