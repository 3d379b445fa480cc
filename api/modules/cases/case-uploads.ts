import type { IncomingMessage } from 'node:http';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applications, caseDocuments, caseUploads, type CaseUploadRow } from '../../../drizzle/schema';
import { FOLLOW_UP_CATALOGUE } from '../../../machines/forms/follow-up/catalogue';
import type { DocumentStorage } from '../../adapters/storage';
import type { VirusScanner } from '../../adapters/virus-scanner';
import type { Clock } from '../../clock';
import { ForbiddenError, NotFoundError } from '../../http/errors';
import { DocumentTooLargeError, receiveCheckedPdf, type PdfChecker, type DocumentLimits } from '../shared';
import type { AuthSession } from '../auth';
import type { CaseUploadData, CaseUploadListData } from '../../../machines/rules/case';
import { fieldError } from '../../http/field-errors';

export type { CaseUploadData, CaseUploadListData };

/**
 * Files of a follow-up's upload step (Submit Supporting Document; docs/decisions/019-case-versions.md):
 * received, checked and scanned exactly as a draft's documents (receiveCheckedPdf), kept in `case_uploads`
 * until the follow-up that names them is made (`takeUploads`, in its transaction). A case's files not yet
 * taken count towards the same total limit as an application's documents.
 */

/** The document types an upload step of the catalogue accepts ('supportingDocument' ...). */
export const CASE_UPLOAD_TYPES: ReadonlySet<string> = new Set(
  Object.values(FOLLOW_UP_CATALOGUE).flatMap((d) =>
    d.steps.flatMap((s) => (s.kind === 'upload' ? s.documents.map((doc) => doc.id) : [])),
  ),
);

export interface CaseUploadService {
  list(session: AuthSession): Promise<CaseUploadListData>;
  upload(session: AuthSession, req: IncomingMessage): Promise<CaseUploadData>;
  remove(session: AuthSession, id: number): Promise<void>;
}

const toData = (row: typeof caseUploads.$inferSelect): CaseUploadData => ({
  id: row.id,
  documentType: row.documentType,
  fileName: row.originalName,
  bytes: row.bytes,
  pageCount: row.pageCount,
  uploadedAt: row.createdAt.toISOString(),
});

const pending = (applicationId: number) =>
  and(eq(caseUploads.applicationId, applicationId), isNull(caseUploads.actionId));

export function createCaseUploadService({
  db,
  storage,
  clock,
  checker,
  limits,
  scanner,
}: {
  db: Db;
  storage: DocumentStorage;
  clock: Clock;
  checker: PdfChecker;
  limits: DocumentLimits;
  scanner: VirusScanner;
}): CaseUploadService {
  return {
    async list(session) {
      const rows = await db
        .select()
        .from(caseUploads)
        .where(pending(session.applicationId))
        .orderBy(asc(caseUploads.id));
      return {
        uploads: rows.map(toData),
        limits: { maxFileBytes: limits.maxFileBytes, maxTotalBytes: limits.maxTotalBytes },
      };
    },

    async upload(session, req) {
      const existing = await db
        .select({ bytes: caseUploads.bytes })
        .from(caseUploads)
        .where(pending(session.applicationId));
      const received = await receiveCheckedPdf(req, {
        storage,
        limits,
        existing,
        checker,
        scanner,
        accept: (fields) => {
          if (!CASE_UPLOAD_TYPES.has(fields.documentType ?? ''))
            throw fieldError(['documentType'], 'documents.typeUnknown');
        },
      });
      try {
        // The case's row is locked, so the total is that of the uploads recorded before, never a parallel one's.
        const row = await db.transaction(async (tx) => {
          const [app] = await tx
            .select({ id: applications.id })
            .from(applications)
            .where(eq(applications.id, session.applicationId))
            .for('update');
          if (!app) throw new NotFoundError('case.notFound');
          const [inserted] = await tx
            .insert(caseUploads)
            .values({
              applicationId: app.id,
              documentType: received.fields.documentType ?? '',
              storageKey: received.storageKey,
              originalName: received.fileName,
              bytes: received.bytes,
              sha256: received.sha256,
              pageCount: received.pageCount,
              createdAt: clock.now(),
            })
            .returning();
          const rows = await tx.select({ bytes: caseUploads.bytes }).from(caseUploads).where(pending(app.id));
          if (rows.reduce((sum, r) => sum + r.bytes, 0) > limits.maxTotalBytes)
            throw new DocumentTooLargeError('total', limits.maxTotalBytes);
          return inserted;
        });
        if (!row) throw new Error('upload not recorded');
        return toData(row);
      } catch (e) {
        await storage.remove(received.storageKey).catch(() => undefined);
        throw e;
      }
    },

    async remove(session, id) {
      const removed = await db
        .delete(caseUploads)
        .where(and(eq(caseUploads.id, id), pending(session.applicationId)))
        .returning({ storageKey: caseUploads.storageKey });
      if (removed.length === 0) throw new NotFoundError('documents.notFound');
      await Promise.all(removed.map((r) => storage.remove(r.storageKey).catch(() => undefined)));
    },
  };
}

/**
 * The case's files named by `ids`, waiting for their follow-up, in the order of `ids` (locked in a
 * transaction). Another case's file is 403; a file unknown, named twice or already taken is 400 (`uploads`).
 */
export async function waitingUploads(
  tx: Db,
  applicationId: number,
  ids: readonly number[],
): Promise<CaseUploadRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select()
    .from(caseUploads)
    .where(inArray(caseUploads.id, [...ids]))
    .orderBy(asc(caseUploads.id))
    .for('update');
  if (rows.some((r) => r.applicationId !== applicationId)) throw new ForbiddenError();
  if (rows.length !== ids.length || rows.some((r) => r.actionId !== null))
    throw fieldError(['uploads'], 'case.uploadUnknown');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)!);
}

/**
 * In a follow-up's transaction: its files become the case's documents under its history row, downloadable
 * until `downloadUntil`. Another case's file is 403; a file unknown or already taken is 400 (`uploads`).
 */
export async function takeUploads(
  tx: Db,
  take: {
    applicationId: number;
    ids: readonly number[];
    actionId: number;
    historyId: number | null;
    kind: string;
    at: Date;
    downloadUntil: Date;
  },
): Promise<void> {
  if (take.ids.length === 0) return;
  const rows = await waitingUploads(tx, take.applicationId, take.ids);
  await tx.insert(caseDocuments).values(
    rows.map((r) => ({
      applicationId: take.applicationId,
      historyId: take.historyId,
      kind: take.kind,
      storageKey: r.storageKey,
      fileName: r.originalName,
      bytes: r.bytes,
      sha256: r.sha256,
      createdAt: take.at,
      downloadUntil: take.downloadUntil,
    })),
  );
  await tx
    .update(caseUploads)
    .set({ actionId: take.actionId })
    .where(inArray(caseUploads.id, [...take.ids]));
}
