import type { IncomingMessage } from 'node:http';
import { readVariable } from '../../config';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { draftDocuments, drafts, signingRequests } from '../../../drizzle/schema';
import { formByKey } from '../../../machines/forms';
import { missingDocuments } from '../../../machines/forms/schema';
import type { DocumentStorage } from '../../adapters/storage';
import { noVirusScanner, type VirusScanner } from '../../adapters/virus-scanner';
import { scanStoredUpload } from '../shared/uploads/virus-scan';
import { ApiError, BadRequestError, NotFoundError } from '../../http/errors';
import type { Clock } from '../../clock';
import type { PdfCheckResult } from '../shared/uploads/pdf-check';
import type { PdfChecker, PdfCheckLimits } from '../shared/uploads/pdf-check-pool';
import { isUploadError, readAll, receivePdfUpload } from '../shared/uploads/upload-receiver';
import { DraftSubmittedError } from '../../http/errors';
import { type DraftAccess, fieldError } from './drafts.service';
import type { DocumentData, DocumentListData } from '../../../machines/rules/submission';

/**
 * The documents of a draft (the Upload Documents step, spec §2 and §5): one PDF per document type of the
 * form. An upload is streamed to the storage while its SHA-256 is computed and stopped at the size limits
 * (413), then parsed in full (api/modules/shared/uploads/pdf-check.ts): only landscape A4 or A3 pages are accepted. A
 * refused file leaves nothing behind. Limits: DocumentLimits (env UPLOAD_MAX_FILE_MB, UPLOAD_MAX_TOTAL_MB).
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

export type { DocumentData, DocumentListData } from '../../../machines/rules/submission';

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

/** Why a file was refused: the check's reasons, and `too-complex` (past the check's memory or time). */
export type DocumentRefusal = Extract<PdfCheckResult, { ok: false }> | { ok: false; reason: 'too-complex' };

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
        },
      },
    );
  }
}

/**
 * Invisible characters that change how a name reads: bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE makes
 * `invoice\u202Efdp.exe` show as `invoiceexe.pdf`), marks, isolates, and zero-width spaces.
 */
export const INVISIBLE_FORMAT_CHARS = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

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

const toData = (row: typeof draftDocuments.$inferSelect): DocumentData => ({
  id: row.id,
  documentType: row.documentType,
  fileName: row.originalName,
  bytes: row.bytes,
  sha256: row.sha256,
  pageCount: row.pageCount,
  uploadedAt: row.createdAt.toISOString(),
});

export interface DocumentService {
  readonly limits: DocumentLimits;
  list(access: DraftAccess): Promise<DocumentListData>;
  /**
   * Receives one multipart upload (`documentType` field first, then `file`) for the draft; replaces the
   * document of that type. 400 for an unknown or missing type, 413 past a limit (stopped while streaming),
   * 422 for a file that is not an accepted PDF, 409 when the application was submitted.
   */
  upload(access: DraftAccess, req: IncomingMessage): Promise<DocumentData>;
  remove(access: DraftAccess, documentType: string): Promise<void>;
  /** The draft's documents in the form's order (what is signed and submitted). */
  rows(draftId: number): Promise<(typeof draftDocuments.$inferSelect)[]>;
  /** Deletes stored files no row refers to any more (after a draft purge). */
  removeFiles(keys: readonly string[]): Promise<void>;
}

export function createDocumentService({
  db,
  storage,
  clock,
  checker,
  limits = DEFAULT_DOCUMENT_LIMITS,
  scanner = noVirusScanner,
}: {
  db: Db;
  storage: DocumentStorage;
  clock: Clock;
  /** The PDF check, off the event loop (pdf-check-pool.ts). */
  checker: PdfChecker;
  limits?: DocumentLimits;
  /** ClamAV's daemon (api/adapters/virus-scanner.ts); default: no scanning. */
  scanner?: VirusScanner;
}): DocumentService {
  const definitionOf = (access: DraftAccess) => {
    const definition = formByKey(access.formKey);
    if (!definition) throw new Error(`draft ${access.applicationNo} has no form ${access.formKey}`);
    return definition;
  };
  const rowsOf = (draftId: number) =>
    db
      .select()
      .from(draftDocuments)
      .where(eq(draftDocuments.draftId, draftId))
      .orderBy(asc(draftDocuments.id));

  async function submittedCheck(access: DraftAccess) {
    const [row] = await db
      .select({ submittedAt: drafts.submittedAt })
      .from(drafts)
      .where(eq(drafts.id, access.id));
    if (!row) throw new NotFoundError();
    if (row.submittedAt) throw new DraftSubmittedError();
  }

  async function removeFiles(keys: readonly string[]) {
    await Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)));
  }

  /**
   * Removes the files of documents that were replaced or deleted, except those a signing request froze:
   * they stay until the draft goes (they may be what was signed, and then what is submitted).
   */
  async function removeUnfrozenFiles(draftId: number, keys: readonly string[]) {
    const frozen = await db
      .select({ documents: signingRequests.documents })
      .from(signingRequests)
      .where(eq(signingRequests.draftId, draftId));
    const keep = new Set(
      frozen.flatMap((f) => (f.documents as { storageKey?: string }[]).map((d) => d.storageKey ?? '')),
    );
    await removeFiles(keys.filter((k) => !keep.has(k)));
  }

  return {
    limits,

    async list(access) {
      const definition = definitionOf(access);
      const rows = await rowsOf(access.id);
      const order = definition.documents.map((d) => d.id);
      rows.sort((a, b) => order.indexOf(a.documentType) - order.indexOf(b.documentType));
      return {
        documents: rows.map(toData),
        missing: missingDocuments(
          definition,
          rows.map((r) => r.documentType),
        ),
        limits,
        totalBytes: rows.reduce((sum, r) => sum + r.bytes, 0),
      };
    },

    async upload(access, req) {
      const definition = definitionOf(access);
      await submittedCheck(access);
      const existing = await rowsOf(access.id);
      const received = await receiveCheckedPdf(req, {
        storage,
        limits,
        existing,
        checker,
        scanner,
        accept: (fields) => {
          if (!definition.documents.some((d) => d.id === fields.documentType))
            throw fieldError(['documentType'], 'documents.typeUnknown');
        },
      });
      const documentType = received.fields.documentType ?? '';
      const fileName = received.fileName;
      try {
        // One upload of a draft at a time records its document: the draft's row is locked, so the total
        // and the document replaced are those of the uploads recorded before, never of a parallel one.
        const { row, replaced } = await db.transaction(async (tx) => {
          await tx.select({ id: drafts.id }).from(drafts).where(eq(drafts.id, access.id)).for('update');
          const removed = await tx
            .delete(draftDocuments)
            .where(and(eq(draftDocuments.draftId, access.id), eq(draftDocuments.documentType, documentType)))
            .returning({ storageKey: draftDocuments.storageKey });
          const [inserted] = await tx
            .insert(draftDocuments)
            .values({
              draftId: access.id,
              documentType,
              storageKey: received.storageKey,
              originalName: fileName,
              bytes: received.bytes,
              sha256: received.sha256,
              pageCount: received.pageCount,
              createdAt: clock.now(),
            })
            .returning();
          const [total] = await tx
            .select({ bytes: sql<number>`coalesce(sum(${draftDocuments.bytes}), 0)::int` })
            .from(draftDocuments)
            .where(eq(draftDocuments.draftId, access.id));
          if ((total?.bytes ?? 0) > limits.maxTotalBytes)
            throw new DocumentTooLargeError('total', limits.maxTotalBytes);
          return { row: inserted, replaced: removed };
        });
        if (!row) throw new Error('document not recorded');
        if (replaced.length > 0)
          await removeUnfrozenFiles(
            access.id,
            replaced.map((r) => r.storageKey),
          );
        return toData(row);
      } catch (e) {
        await removeFiles([received.storageKey]);
        throw e;
      }
    },

    async remove(access, documentType) {
      await submittedCheck(access);
      const removed = await db
        .delete(draftDocuments)
        .where(and(eq(draftDocuments.draftId, access.id), eq(draftDocuments.documentType, documentType)))
        .returning({ storageKey: draftDocuments.storageKey });
      if (removed.length === 0) throw new NotFoundError('documents.notFound');
      await removeUnfrozenFiles(
        access.id,
        removed.map((r) => r.storageKey),
      );
    },

    rows: async (draftId) => rowsOf(draftId),
    removeFiles,
  };
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
    const check = await checker.check(await readAll(storage, received.storageKey));
    if (!check.ok && check.reason === 'busy')
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'documents.busy', null, {
        headers: { 'Retry-After': '5' },
      });
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
