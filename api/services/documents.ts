import type { IncomingMessage } from 'node:http';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { draftDocuments, drafts, signingRequests } from '../../drizzle/schema';
import { formByKey } from '../../machines/forms';
import { missingDocuments } from '../../machines/forms/schema';
import type { DocumentStorage } from '../adapters/storage';
import { noVirusScanner, type VirusScanner } from '../adapters/virus-scanner';
import { scanStoredUpload } from './virus-scan';
import { ApiError, BadRequestError, NotFoundError } from '../errors';
import type { Clock } from '../clock';
import { checkPdf, type PdfCheckResult } from './pdf-check';
import { isUploadError, readAll, receivePdfUpload } from './upload-receiver';
import { DraftSubmittedError } from '../errors';
import { type DraftAccess, fieldError } from './drafts';
import type { DocumentData, DocumentListData } from '../../machines/rules/submission';

/**
 * The documents of a draft (the Upload Documents step, spec §2 and §5): one PDF per document type of the
 * form. An upload is streamed to the storage while its SHA-256 is computed and stopped at the size limits
 * (413), then parsed in full (api/services/pdf-check.ts): only landscape A4 or A3 pages are accepted. A
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

/** The limits from UPLOAD_MAX_FILE_MB / UPLOAD_MAX_TOTAL_MB (whole or decimal megabytes), else the defaults. */
export function documentLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): DocumentLimits {
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const mb = Number(raw);
    if (!Number.isFinite(mb) || mb <= 0) throw new Error(`${name} must be a positive number of megabytes`);
    return Math.floor(mb * MB);
  };
  return {
    maxFileBytes: read('UPLOAD_MAX_FILE_MB', DEFAULT_DOCUMENT_LIMITS.maxFileBytes),
    maxTotalBytes: read('UPLOAD_MAX_TOTAL_MB', DEFAULT_DOCUMENT_LIMITS.maxTotalBytes),
  };
}

export type { DocumentData, DocumentListData } from '../../machines/rules/submission';

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

/** 422 DOCUMENT_INVALID: the file is not an accepted PDF; `data.reason` says why (and which page). */
export class DocumentInvalidError extends ApiError {
  constructor(result: Extract<PdfCheckResult, { ok: false }>, fileName: string) {
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
        },
      },
    );
  }
}

/** Keeps a file name displayable: no path, no control characters, at most 200 characters. */
export function displayFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
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
  limits = DEFAULT_DOCUMENT_LIMITS,
  scanner = noVirusScanner,
}: {
  db: Db;
  storage: DocumentStorage;
  clock: Clock;
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
      const received = await receiveOrExplain(req, { storage, limits, existing });
      const documentType = received.fields.documentType ?? '';
      try {
        if (!definition.documents.some((d) => d.id === documentType))
          throw fieldError(['documentType'], 'documents.typeUnknown');
        const fileName = displayFileName(received.originalName);
        const check = await checkPdf(await readAll(storage, received.storageKey));
        if (!check.ok) throw new DocumentInvalidError(check, fileName);
        await scanStoredUpload(scanner, storage, received.storageKey, fileName);
        const replaced = existing.find((r) => r.documentType === documentType);
        const row = await db.transaction(async (tx) => {
          await tx
            .delete(draftDocuments)
            .where(and(eq(draftDocuments.draftId, access.id), eq(draftDocuments.documentType, documentType)));
          const [inserted] = await tx
            .insert(draftDocuments)
            .values({
              draftId: access.id,
              documentType,
              storageKey: received.storageKey,
              originalName: fileName,
              bytes: received.bytes,
              sha256: received.sha256,
              pageCount: check.pageCount,
              createdAt: clock.now(),
            })
            .returning();
          // The total is checked again inside the transaction: two uploads at once cannot pass it together.
          const [total] = await tx
            .select({ bytes: sql<number>`coalesce(sum(${draftDocuments.bytes}), 0)::int` })
            .from(draftDocuments)
            .where(eq(draftDocuments.draftId, access.id));
          if ((total?.bytes ?? 0) > limits.maxTotalBytes)
            throw new DocumentTooLargeError('total', limits.maxTotalBytes);
          return inserted;
        });
        if (!row) throw new Error('document not recorded');
        if (replaced) await removeUnfrozenFiles(access.id, [replaced.storageKey]);
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
