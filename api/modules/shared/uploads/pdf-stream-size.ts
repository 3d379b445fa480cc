import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createInflate } from 'node:zlib';
import { PDFArray, PDFName, type PDFObject, PDFRawStream, decodePDFRawStream } from 'pdf-lib';

/**
 * What a file's compressed streams inflate to, measured before anything reads them: page contents, forms,
 * images, fonts and object streams alike, since a reader inflates each one it shows. A 1 MB content stream
 * can inflate to 1 GiB; the check counts the bytes as they come out of zlib and throws them away, so it
 * never holds more than a chunk, and stops at the limit (docs/decisions/031-pdf-active-content.md).
 */

export class InflateLimitError extends Error {
  constructor() {
    super('PDF streams inflate past the limit');
    this.name = 'InflateLimitError';
  }
}

/** Filters by their names and the abbreviations readers accept (pdf.js takes /Fl for /FlateDecode). */
const FILTERS: Record<string, string> = {
  FlateDecode: 'FlateDecode',
  Fl: 'FlateDecode',
  LZWDecode: 'LZWDecode',
  LZW: 'LZWDecode',
  ASCII85Decode: 'ASCII85Decode',
  A85: 'ASCII85Decode',
  ASCIIHexDecode: 'ASCIIHexDecode',
  AHx: 'ASCIIHexDecode',
  RunLengthDecode: 'RunLengthDecode',
  RL: 'RunLengthDecode',
};

/**
 * The filters of a stream that this check can decode, in order, up to the first it cannot (an image codec
 * such as DCTDecode: its output is pixels, which no reader keeps whole). Names are compared decoded, so
 * `/Fl#61teDecode` is FlateDecode, as readers see it.
 */
function decodableFilters(stream: PDFRawStream): string[] {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const names: PDFObject[] =
    filter instanceof PDFArray
      ? filter.asArray().map((item) => stream.dict.context.lookup(item) ?? item)
      : [];
  if (filter instanceof PDFName) names.push(filter);
  const known: string[] = [];
  for (const name of names) {
    const canonical = name instanceof PDFName ? FILTERS[name.decodeText()] : undefined;
    if (!canonical) break;
    known.push(canonical);
  }
  return known;
}

/** Counts the bytes written to it and throws them away; fails once they pass `limit`. */
function counter(limit: number, counted: { bytes: number }): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      counted.bytes += chunk.length;
      done(counted.bytes > limit ? new InflateLimitError() : null);
    },
  });
}

/**
 * The inflated size of Flate data inflated `times` times over (a filter array may repeat FlateDecode),
 * streamed. Data that stops inflating (damaged, cut short) counts what came out before: readers show that
 * much too. Throws {@link InflateLimitError} past `limit`.
 */
async function inflatedSize(data: Uint8Array, times: number, limit: number): Promise<number> {
  const counted = { bytes: 0 };
  const stages = Array.from({ length: times }, () =>
    createInflate({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 }),
  );
  try {
    await pipeline([Readable.from([data], { objectMode: false }), ...stages, counter(limit, counted)]);
  } catch (error) {
    if (error instanceof InflateLimitError) throw error;
  }
  return counted.bytes;
}

/** The limits of one file's streams: each, and all together. */
export class InflateBudget {
  private total = 0;
  private readonly measured = new WeakSet<PDFRawStream>();

  constructor(
    readonly maxStreamBytes: number,
    readonly maxTotalBytes: number,
  ) {}

  /** Bytes inflated so far. */
  get totalBytes(): number {
    return this.total;
  }

  /**
   * Adds what `stream` inflates to, once per stream. Flate alone (one or more times) is streamed; a chain
   * with LZW, ASCII85, ASCIIHex or RunLength (rare in drawings) is decoded by pdf-lib, whose buffers the
   * worker caps (pdf-decode-limit.ts). Throws {@link InflateLimitError} past either limit.
   */
  async measure(stream: PDFRawStream): Promise<void> {
    if (this.measured.has(stream)) return;
    this.measured.add(stream);
    const filters = decodableFilters(stream);
    if (filters.length === 0) return;
    const limit = Math.min(this.maxStreamBytes, this.maxTotalBytes - this.total);
    let size: number;
    if (filters.every((f) => f === 'FlateDecode')) {
      size = await inflatedSize(stream.contents, filters.length, limit);
    } else {
      size = this.decodedByPdfLib(stream, filters);
      if (size > limit) throw new InflateLimitError();
    }
    this.total += size;
  }

  private decodedByPdfLib(stream: PDFRawStream, filters: string[]): number {
    const { context } = stream.dict;
    const dict = stream.dict.clone(context);
    dict.set(PDFName.of('Filter'), context.obj(filters.map((f) => PDFName.of(f))));
    try {
      return decodePDFRawStream(PDFRawStream.of(dict, stream.contents)).decode().length;
    } catch (error) {
      if (error instanceof Error && error.name === 'DecodeLimitError') throw new InflateLimitError();
      return 0; // damaged data: nothing a reader shows either
    }
  }
}
