import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy, { type Busboy } from 'busboy';
import { type DocumentStorage, newStorageKey } from '../../../adapters/storage';

/** One uploaded document may be at most 10 MiB: a 20-page scanned drawing set fits, a video does not. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** All documents of one application together may be at most 50 MiB (the caller tracks what is left). */
export const DEFAULT_MAX_TOTAL_BYTES = 50 * 1024 * 1024;

/** The multipart field that carries the document. */
export const FILE_FIELD = 'file';

/** Text fields beside the file (documentType and the like): at most this many ... */
export const MAX_TEXT_FIELDS = 20;

/** ... of at most this many bytes each; more is not a form this portal sent. */
export const MAX_TEXT_FIELD_BYTES = 8 * 1024;

export type UploadLimit = 'file' | 'total';

/** Why an upload was refused; each maps to one status (413, 400, 400, 400) in the route. */
export type UploadFailure =
  | { kind: 'too-large'; limit: UploadLimit; limitBytes: number }
  | { kind: 'no-file' }
  | { kind: 'bad-multipart' }
  | { kind: 'too-many-files' };

/**
 * A refused upload. `kind` (and `limit` for `too-large`) are copied onto the error so callers and
 * tests can match them directly; `failure` is the same as a union, for an exhaustive `switch`.
 */
export class UploadError extends Error {
  readonly kind: UploadFailure['kind'];
  readonly limit?: UploadLimit;
  readonly limitBytes?: number;

  constructor(readonly failure: UploadFailure) {
    super(`Upload refused: ${failure.kind}`);
    this.name = 'UploadError';
    this.kind = failure.kind;
    if (failure.kind === 'too-large') {
      this.limit = failure.limit;
      this.limitBytes = failure.limitBytes;
    }
  }
}

/** Narrows a caught value, for the route that maps upload refusals to status codes. */
export function isUploadError(error: unknown): error is UploadError {
  return error instanceof UploadError;
}

/**
 * The request body and its headers. An `IncomingMessage` is one; the wider type lets a caller put a
 * stream in between (a test counts the bytes read through one).
 */
export type UploadSource = Readable & { headers: IncomingHttpHeaders };

export interface ReceiveOptions {
  /** Largest accepted document, usually {@link DEFAULT_MAX_FILE_BYTES}. */
  maxFileBytes: number;
  /** What the application may still add before reaching its total, computed by the caller. */
  remainingBytes: number;
  storage: DocumentStorage;
}

export interface ReceivedFile {
  /** Where the bytes are, made here with `newStorageKey()`; never derived from the upload. */
  storageKey: string;
  /** SHA-256 of the stored bytes, lowercase hex. */
  sha256: string;
  bytes: number;
  /** The name the browser sent (without any directory part); '' when it sent none. Display only. */
  originalName: string;
  /** The text fields; for a name sent twice, the last value. */
  fields: Record<string, string>;
}

/**
 * The tighter of the two limits and which one it is: the file limit when both are equal, since that is
 * the message that tells the applicant something they can act on.
 */
export function effectiveLimit(
  maxFileBytes: number,
  remainingBytes: number,
): { limit: UploadLimit; limitBytes: number } {
  return remainingBytes < maxFileBytes
    ? { limit: 'total', limitBytes: Math.max(0, remainingBytes) }
    : { limit: 'file', limitBytes: maxFileBytes };
}

/** Only `multipart/form-data` (busboy would also take urlencoded forms, which cannot carry a file). */
export function isMultipartFormData(contentType: string | undefined): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(contentType ?? '');
}

function createParser(headers: IncomingHttpHeaders, limitBytes: number): Busboy | undefined {
  try {
    return busboy({
      headers,
      // Browsers send the file name as raw UTF-8 (the HTML multipart encoding), not latin1.
      defParamCharset: 'utf8',
      limits: {
        files: 1,
        // busboy emits 'limit' when a file *reaches* fileSize, so one byte more: a file of exactly
        // `limitBytes` is accepted, one byte over is refused.
        fileSize: limitBytes + 1,
        fields: MAX_TEXT_FIELDS,
        fieldSize: MAX_TEXT_FIELD_BYTES,
        parts: MAX_TEXT_FIELDS + 2,
      },
    });
  } catch {
    // No or malformed boundary.
    return undefined;
  }
}

interface FileInProgress {
  key: string;
  originalName: string;
  /** The hashing, counting stream that feeds storage; destroyed to abort the write. */
  meter: Transform;
  put: Promise<void>;
  sha256: () => string;
  bytes: () => number;
}

/** A pass-through that hashes and counts what goes to storage. */
function meterStream(): { meter: Transform; sha256: () => string; bytes: () => number } {
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  // Failures reach the receiver through the storage write; a late destroy(error) after the write
  // finished must not become an unhandled 'error' event.
  meter.on('error', () => undefined);
  return { meter, sha256: () => hash.digest('hex'), bytes: () => bytes };
}

/** Waits for a write to settle and deletes whatever it left; never rejects. */
async function discard(storage: DocumentStorage, file: FileInProgress | undefined): Promise<void> {
  if (!file) return;
  await file.put.catch(() => undefined);
  await storage.remove(file.key).catch(() => undefined);
}

/**
 * Reads a `multipart/form-data` upload of one document (field `file`) and its text fields, streaming the
 * document into `storage` while hashing and counting it; nothing is buffered beyond the streams' own
 * chunks. The tighter of `maxFileBytes` and `remainingBytes` is enforced while streaming: once the file
 * passes it, reading stops (the body is unpiped and paused, not drained), the partial file is removed,
 * and the promise rejects with {@link UploadError} `too-large` — so a 1 GB upload costs about the limit,
 * not a gigabyte. The caller should then answer 413 with `Connection: close`, as the rest of the body
 * is still on the wire.
 *
 * Other refusals (all {@link UploadError}, all after removing anything stored): `bad-multipart` (not
 * multipart/form-data, malformed or cut-short body, a file in another field, too many or too long text
 * fields), `too-many-files` (a second file), `no-file` (no file, or the empty part a browser sends for an
 * empty file input). A storage failure rejects with the storage's own error. On success the document is
 * stored and the caller still has to check it (`checkPdf(await readAll(storage, key))`).
 */
export function receivePdfUpload(req: UploadSource, options: ReceiveOptions): Promise<ReceivedFile> {
  const { storage } = options;
  const { limit, limitBytes } = effectiveLimit(options.maxFileBytes, options.remainingBytes);
  const badMultipart = new UploadError({ kind: 'bad-multipart' });
  if (!isMultipartFormData(req.headers['content-type'])) return Promise.reject(badMultipart);
  const parser = createParser(req.headers, limitBytes);
  if (!parser) return Promise.reject(badMultipart);

  return new Promise<ReceivedFile>((resolve, reject) => {
    let settled = false;
    let file: FileInProgress | undefined;
    const fields = new Map<string, string>();

    const fail = (reason: unknown): void => {
      if (settled) return;
      settled = true;
      const error = reason instanceof Error ? reason : new Error(String(reason));
      req.unpipe(parser);
      req.pause();
      file?.meter.destroy(error);
      void discard(storage, file).then(() => reject(error));
    };

    parser.on('file', (name, stream, info) => {
      if (settled) {
        stream.resume();
        return;
      }
      if (name !== FILE_FIELD) {
        stream.resume();
        fail(badMultipart);
        return;
      }
      const { meter, sha256, bytes } = meterStream();
      stream.on('limit', () => fail(new UploadError({ kind: 'too-large', limit, limitBytes })));
      // Errors reach us through `put` (the meter is its source); this only wires destruction both ways.
      pipeline(stream, meter).catch(() => undefined);
      const key = newStorageKey();
      const put = storage.put(key, meter);
      put.catch(fail);
      file = { key, originalName: info.filename ?? '', meter, put, sha256, bytes };
    });

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) fail(badMultipart);
      else fields.set(name, value);
    });
    parser.on('filesLimit', () => fail(new UploadError({ kind: 'too-many-files' })));
    parser.on('fieldsLimit', () => fail(badMultipart));
    parser.on('partsLimit', () => fail(badMultipart));
    parser.on('error', () => fail(badMultipart));
    req.on('error', () => fail(badMultipart));
    req.on('aborted', () => fail(badMultipart));

    parser.on('close', () => {
      const current = file;
      if (settled) return;
      // A browser sends an empty, nameless part for a file input left empty.
      if (!current || (current.originalName === '' && current.bytes() === 0)) {
        fail(new UploadError({ kind: 'no-file' }));
        return;
      }
      current.put.then(() => {
        if (settled) return;
        settled = true;
        resolve({
          storageKey: current.key,
          sha256: current.sha256(),
          bytes: current.bytes(),
          originalName: current.originalName,
          fields: Object.fromEntries(fields),
        });
      }, fail);
    });

    req.pipe(parser);
  });
}

/**
 * A stored document's bytes, for `checkPdf` (pdf-lib parses from memory, so the whole file is read; it
 * is at most the file limit).
 */
export async function readAll(storage: DocumentStorage, key: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.get(key) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
