import type { IncomingMessage } from 'node:http';
import { readVariable } from '../../../config';
import type { DocumentStorage } from '../../../adapters/storage';
import type { VirusScanner } from '../../../adapters/virus-scanner';
import { ApiError, BadRequestError } from '../../../http/errors';
import { INVISIBLE_FORMAT_CHARS } from '../../../http/download';
import { fieldError } from '../../../http/field-errors';
import type { PdfCheckResult } from './pdf-check';
import type { PdfChecker, PdfCheckLimits } from './pdf-check-pool';
import { isUploadError, readAll, receivePdfUpload } from './upload-receiver';
import { scanStoredUpload } from './virus-scan';

/**
 * A checked upload, for a draft's documents and a case's follow-up files alike: received while its SHA-256
 * is computed and stopped at the size limits (413), parsed in full by the PDF check (only landscape A4 or
 * A3 pages: 422), then scanned by ClamAV. Limits: DocumentLimits (env UPLOAD_MAX_FILE_MB,
 * UPLOAD_MAX_TOTAL_MB). A refused file leaves nothing behind.
 */
export interface DocumentLimits {
  /** The largest single file, in bytes (default 10 MB). */
  maxFileBytes: number;
  /** All documents of one application together, in bytes (default 50 MB). */
  maxTotalBytes: number;
}

export const MB = 1024 * 1024;
export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxFileBytes: 10 * MB, maxTotalBytes: 50 * MB };

/** The limits from UPLOAD_MAX_FILE_MB / UPLOAD_MAX_TOTAL_MB (whole or decimal megabytes; api/config.ts). */
export function documentLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): DocumentLimits {
  return {
    maxFileBytes: Math.floor(readVariable('UPLOAD_MAX_FILE_MB', env) * MB),
    maxTotalBytes: Math.floor(readVariable('UPLOAD_MAX_TOTAL_MB', env) * MB),
  };
}

/** 413 PAYLOAD_TOO_LARGE: the file, or the application's documents together, would pass a limit. */
export class DocumentTooLargeError extends ApiError {
  constructor(limit: 'file' | 'total', bytes: number) {
    super(
      413,
      'PAYLOAD_TOO_LARGE',
      limit === 'file' ? 'documents.tooLarge.file' : 'documents.tooLarge.total',
      { limit, maxBytes: bytes },
      { params: { mb: Math.round((bytes / MB) * 10) / 10 } },
    );
  }
}

/** Why a file was refused: the check's reasons (`too-complex` also past the worker's memory or time). */
export type DocumentRefusal = Extract<PdfCheckResult, { ok: false }>;

/** 422 DOCUMENT_INVALID: the file is not an accepted PDF; `data.reason` says why (and which page). */
export class DocumentInvalidError extends ApiError {
  constructor(
    result: DocumentRefusal & { page?: number; widthMm?: number; heightMm?: number },
    fileName: string,
    limits?: PdfCheckLimits,
  ) {
    super(
      422,
      'DOCUMENT_INVALID',
      `documents.invalid.${result.reason}`,
      { reason: result.reason, page: result.page ?? null, fileName },
      {
        params: {
          name: fileName,
          page: result.page ?? 0,
          width: Math.round(result.widthMm ?? 0),
          height: Math.round(result.heightMm ?? 0),
          mb: limits?.totalMb ?? 0,
          seconds: limits?.timeoutSeconds ?? 0,
          pages: limits?.maxPages ?? 0,
        },
      },
    );
  }
}

/** Keeps a file name displayable: no path, no control or bidi characters, at most 200 characters. */
export function displayFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .replace(INVISIBLE_FORMAT_CHARS, '')
    .trim();
  return (clean || 'document.pdf').slice(0, 200);
}

/**
 * Whose turn an upload's check takes (pdf-check-pool.ts): the caller's address as Express reads it (behind
 * TRUST_PROXY, from X-Forwarded-For), the same key as the rate limits. Drafts need no login, so a session
 * is not a caller: anyone can open as many drafts as they like. An IPv6 address counts by its /64, the
 * block one subscriber is given.
 */
export function callerOf(req: IncomingMessage): string {
  const ip = (req as IncomingMessage & { ip?: string }).ip ?? req.socket.remoteAddress ?? '';
  if (!ip.includes(':') || ip.startsWith('::ffff:')) return ip;
  const [head = ''] = ip.split('::');
  const groups = head.split(':').filter(Boolean);
  // Fewer than four groups before `::` means the rest of the /64 is zeros.
  return `${[...groups, '0', '0', '0', '0'].slice(0, 4).join(':')}::/64`;
}

/** A file received, checked and scanned: stored under `storageKey`, with the form's other fields. */
export interface CheckedUpload {
  storageKey: string;
  fileName: string;
  bytes: number;
  sha256: string;
  pageCount: number;
  fields: Readonly<Record<string, string>>;
}

/**
 * The upload's one sequence, for a draft's documents and a case's follow-up files alike: receive (streamed,
 * stopped at the limits: 413), `accept` the form's fields (the document type), the PDF check (landscape A4
 * or A3: 422; the checker busy: 503), then ClamAV (infected 422, unreachable 503). A refused file leaves
 * nothing behind; the caller records the file, and removes it if that fails.
 */
export async function receiveCheckedPdf(
  req: IncomingMessage,
  options: {
    storage: DocumentStorage;
    limits: DocumentLimits;
    existing: readonly { bytes: number }[];
    checker: PdfChecker;
    scanner: VirusScanner;
    accept: (fields: Readonly<Record<string, string>>) => void;
  },
): Promise<CheckedUpload> {
  const { storage, checker } = options;
  const received = await receiveOrExplain(req, options);
  try {
    options.accept(received.fields);
    const fileName = displayFileName(received.originalName);
    const check = await checker.check(() => readAll(storage, received.storageKey), callerOf(req));
    if (!check.ok && check.reason === 'busy')
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'documents.busy', null, {
        headers: { 'Retry-After': '5' },
      });
    if (!check.ok && check.reason === 'caller-busy')
      throw new ApiError(
        429,
        'RATE_LIMITED',
        'documents.checksWaiting',
        { retryAfterSeconds: 5 },
        {
          headers: { 'Retry-After': '5' },
        },
      );
    if (!check.ok) throw new DocumentInvalidError(check, fileName, checker.limits);
    await scanStoredUpload(options.scanner, storage, received.storageKey, fileName);
    return {
      storageKey: received.storageKey,
      fileName,
      bytes: received.bytes,
      sha256: received.sha256,
      pageCount: check.pageCount,
      fields: received.fields,
    };
  } catch (e) {
    await storage.remove(received.storageKey).catch(() => undefined);
    throw e;
  }
}

/**
 * Streams the upload to the storage; a file past a limit is stopped while streaming (413). A replacement
 * frees the space of the file it replaces, whose type is only known once the form has been read: while
 * streaming, the total allows for the largest existing file, and the exact total is checked in the
 * transaction that records the document.
 */
async function receiveOrExplain(
  req: IncomingMessage,
  options: { storage: DocumentStorage; limits: DocumentLimits; existing: readonly { bytes: number }[] },
) {
  const { limits, existing } = options;
  const used = existing.reduce((sum, r) => sum + r.bytes, 0);
  const largest = Math.max(0, ...existing.map((r) => r.bytes));
  try {
    return await receivePdfUpload(req, {
      maxFileBytes: limits.maxFileBytes,
      remainingBytes: Math.max(0, limits.maxTotalBytes - used + largest),
      storage: options.storage,
    });
  } catch (e) {
    throw uploadError(e, limits);
  }
}

/** The receiver's refusals as API errors: 413 for a limit (the file's or the application's), 400 otherwise. */
function uploadError(e: unknown, limits: DocumentLimits): unknown {
  if (!isUploadError(e)) return e;
  switch (e.failure.kind) {
    case 'too-large':
      return e.failure.limit === 'file'
        ? new DocumentTooLargeError('file', limits.maxFileBytes)
        : new DocumentTooLargeError('total', limits.maxTotalBytes);
    case 'no-file':
      return fieldError(['file'], 'documents.noFile');
    case 'too-many-files':
      return new BadRequestError('documents.tooManyFiles');
    case 'bad-multipart':
      return new BadRequestError('documents.badMultipart');
  }
}
