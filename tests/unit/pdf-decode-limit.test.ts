import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { PDFContext, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { limitPdfDecoding } from '../../api/modules/shared/uploads/pdf-decode-limit';

/**
 * The second line behind the check's own measure (pdf-stream-size.ts): pdf-lib's decoders, capped in the
 * check's workers (pdf-decode-limit.ts), for the filter chains the check hands to pdf-lib.
 */
// The cap patches pdf-lib's DecodeStream for the process: put it back for the files that run after this one.
const { default: DecodeStream } = createRequire(import.meta.url)('pdf-lib/cjs/core/streams/DecodeStream') as {
  default: { prototype: { ensureBuffer: unknown } };
};
const original = DecodeStream.prototype.ensureBuffer;
afterAll(() => {
  DecodeStream.prototype.ensureBuffer = original;
});

describe('the cap on pdf-lib decoding', () => {
  it('stops a stream that grows past its limit', () => {
    const limit = limitPdfDecoding(1024 * 1024, 8 * 1024 * 1024);
    const context = PDFContext.create();
    const data = deflateSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    const stream = PDFRawStream.of(context.obj({ Filter: 'FlateDecode' }), data);

    expect(() => decodePDFRawStream(stream).decode()).toThrow('PDF stream inflates past the limit');
    expect(limit.exceeded).toBe(true);
    limit.reset();
    expect(limit.exceeded).toBe(false);
  });
});
