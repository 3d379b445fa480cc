import {
  PDFContext,
  type PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFObjectStreamParser,
  PDFRawStream,
  PDFRef,
} from 'pdf-lib';
import type { InflateBudget } from './pdf-stream-size';

/**
 * Every object a PDF reader could take from a file, read from its raw bytes rather than from one parse
 * (docs/decisions/031-pdf-active-content.md). A reader follows the cross-reference table, or, when that is
 * broken, scans the file for `N G obj` headers and keeps the last one of each number; pdf-lib parses front
 * to back and also keeps the last. A file can therefore define object 1 twice and show each reader a
 * different one. So every `N G obj` header in the bytes is read, with pdf-lib's own object parser, each
 * object stream is opened, and every definition is kept (`definitions`), not only the one a reader picks.
 * Every `trailer` dictionary and cross-reference stream dictionary is kept too (`trailers`): a reader may
 * start from any of them.
 */

/** What one pass over the bytes found. */
export interface PdfObjects {
  /** The objects as a reader resolves them: the last definition of each number (pdf-lib's lookup). */
  context: PDFContext;
  /** Every definition of every object number, in file order (object streams' objects included). */
  definitions: Map<string, PDFObject[]>;
  /** Every trailer dictionary and cross-reference stream dictionary, in file order. */
  trailers: PDFDict[];
  /** The document catalog a reader starts from: /Root of the last trailer that names one. */
  root: PDFObject | undefined;
  /**
   * Object headers outside every object read whose object could not be read: a reader might make sense
   * of what this check cannot, so the file is refused as damaged.
   */
  unreadable: number;
  /** Definitions read in all (a budget: past it the file is too complex). */
  count: number;
}

/**
 * pdf-lib 1.17's object parser, as its own parser uses it. Its `bytes` (a ByteStream), `parseDict` and
 * `skipWhitespaceAndComments` are protected in the typings and plain methods in the code.
 */
interface ObjectParserInternals {
  bytes: { moveTo(offset: number): void; offset(): number };
  parseObject(): PDFObject;
  parseDict(): PDFDict;
  skipWhitespaceAndComments(): void;
}

/** More definitions than a drawing set has: past this, reading stops and the file is too complex. */
export const MAX_DEFINITIONS = 1_000_000;

export class TooManyObjectsError extends Error {
  constructor() {
    super('PDF has too many objects');
    this.name = 'TooManyObjectsError';
  }
}

/** The key of an object number and generation in {@link PdfObjects.definitions}. */
export const refKey = (ref: PDFRef): string => `${ref.objectNumber} ${ref.generationNumber}`;

// `N G obj` at the start of the file or after whitespace or a delimiter; `trailer` likewise.
const OBJECT_HEADER = /(?<![0-9.+-])(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj(?![A-Za-z0-9_])/g;
const TRAILER = /(?<![A-Za-z0-9_])trailer(?![A-Za-z0-9_])/g;

const isNamed = (dict: PDFDict, key: string, value: string): boolean => {
  const found = dict.get(PDFName.of(key));
  return found instanceof PDFName && found.decodeText() === value;
};

/**
 * Reads every object definition, object stream and trailer of `bytes` (see the file's comment). Every
 * compressed stream is measured by `budget` before any is opened, object streams included, so a bomb is
 * refused before pdf-lib inflates it. Throws {@link TooManyObjectsError} past {@link MAX_DEFINITIONS} and
 * the budget's InflateLimitError past its limits; the errors of pdf-lib's capped decoders
 * (pdf-decode-limit.ts) pass through.
 */
export async function readPdfObjects(bytes: Uint8Array, budget?: InflateBudget): Promise<PdfObjects> {
  const context = PDFContext.create();
  const definitions = new Map<string, PDFObject[]>();
  const trailers: PDFDict[] = [];
  let count = 0;
  const assign = context.assign.bind(context);
  // pdf-lib's object stream parser assigns each object it reads: every definition passes through here.
  context.assign = (ref: PDFRef, object: PDFObject) => {
    count += 1;
    if (count > MAX_DEFINITIONS) throw new TooManyObjectsError();
    const key = refKey(ref);
    const list = definitions.get(key);
    if (list) list.push(object);
    else definitions.set(key, [object]);
    assign(ref, object);
  };
  const parser = PDFObjectParser.forBytes(bytes, context) as unknown as ObjectParserInternals;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

  // Headers, in file order. One inside an object already read (in a stream's data) that does not read as
  // an object is data; one outside every object that does not read is a damaged or hostile object.
  let readUntil = 0;
  let unreadable = 0;
  const objectStreams: PDFRawStream[] = [];
  for (const match of text.matchAll(OBJECT_HEADER)) {
    const start = match.index;
    const ref = PDFRef.of(Number(match[1]), Number(match[2]));
    let object: PDFObject;
    try {
      parser.bytes.moveTo(start + match[0].length);
      parser.skipWhitespaceAndComments();
      object = parser.parseObject();
    } catch (error) {
      if (error instanceof TooManyObjectsError) throw error;
      if (start >= readUntil) unreadable += 1;
      continue;
    }
    readUntil = Math.max(readUntil, parser.bytes.offset());
    if (object instanceof PDFRawStream && isNamed(object.dict, 'Type', 'XRef')) trailers.push(object.dict);
    context.assign(ref, object);
    if (object instanceof PDFRawStream && isNamed(object.dict, 'Type', 'ObjStm')) objectStreams.push(object);
  }
  await measureStreams();
  for (const stream of objectStreams) await readObjectStream(stream);
  await measureStreams(); // streams in object streams are not allowed, but a parser may find one

  for (const match of text.matchAll(TRAILER)) {
    try {
      parser.bytes.moveTo(match.index + match[0].length);
      parser.skipWhitespaceAndComments();
      trailers.push(parser.parseDict());
    } catch {
      // the word in a string or a stream's data, or a trailer cut short: nothing a reader starts from
    }
  }
  let root: PDFObject | undefined;
  for (const trailer of trailers) root = trailer.get(PDFName.of('Root')) ?? root;
  return { context, definitions, trailers, root, unreadable, count };

  async function measureStreams(): Promise<void> {
    if (!budget) return;
    for (const list of definitions.values())
      for (const object of list) if (object instanceof PDFRawStream) await budget.measure(object);
  }

  /** The objects of one object stream (its /N and /First must be numbers); one that fails to read counts. */
  async function readObjectStream(stream: PDFRawStream): Promise<void> {
    const n = stream.dict.lookup(PDFName.of('N'));
    const first = stream.dict.lookup(PDFName.of('First'));
    if (!(n instanceof PDFNumber) || !(first instanceof PDFNumber)) {
      unreadable += 1;
      return;
    }
    if (n.asNumber() > MAX_DEFINITIONS) throw new TooManyObjectsError();
    try {
      await PDFObjectStreamParser.forStream(stream).parseIntoContext();
    } catch (error) {
      if (error instanceof TooManyObjectsError) throw error;
      if (isDecodeLimit(error)) throw error;
      unreadable += 1;
    }
  }
}

/** The inflate limit's error (pdf-decode-limit.ts), told by name: that module is loaded in workers only. */
export const isDecodeLimit = (error: unknown): boolean =>
  error instanceof Error && error.name === 'DecodeLimitError';
