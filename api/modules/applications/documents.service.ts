import type { IncomingMessage } from 'node:http';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { draftDocuments, drafts, signingRequests } from '../../../drizzle/schema';
import { formByKey } from '../../../machines/forms';
import { missingDocuments } from '../../../machines/forms/schema';
import type { DocumentStorage } from '../../adapters/storage';
import { noVirusScanner, type VirusScanner } from '../../adapters/virus-scanner';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentTooLargeError,
  receiveCheckedPdf,
  type PdfChecker,
  type DocumentLimits,
} from '../shared';
import { NotFoundError } from '../../http/errors';
import type { Clock } from '../../clock';
import { DraftSubmittedError } from '../../http/errors';
import { type DraftAccess } from './drafts.service';
import type { DocumentData, DocumentListData } from '../../../machines/rules/submission';
import { fieldError } from '../../http/field-errors';

/**
 * The documents of a draft (the Upload Documents step, spec §2 and §5): one PDF per document type of the
 * form. An upload is streamed to the storage while its SHA-256 is computed and stopped at the size limits
 * (413), then parsed in full (api/modules/shared/uploads/pdf-check.ts): only landscape A4 or A3 pages are accepted. A
 * refused file leaves nothing behind. Limits: DocumentLimits (env UPLOAD_MAX_FILE_MB, UPLOAD_MAX_TOTAL_MB).
 */

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
