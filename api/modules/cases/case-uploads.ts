import type { IncomingMessage } from 'node:http';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applications, caseDocuments, caseUploads, type CaseUploadRow } from '../../../drizzle/schema';
import { FOLLOW_UP_CATALOGUE } from '../../../machines/forms/follow-up/catalogue';
import type { DocumentStorage } from '../../adapters/storage';
import type { VirusScanner } from '../../adapters/virus-scanner';
import type { Clock } from '../../clock';
import { ApiError, ForbiddenError, NotFoundError } from '../../http/errors';
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
 *
 * Each file belongs to the follow-up it was uploaded for: the document type chosen on the form (`forType`)
 * and the department's request it answers (`requestId`, none else). Listed, counted and taken only for
 * that follow-up; a follow-up of another type or request starts empty, and the files of an abandoned one
 * expire (purged a day after their upload, api/jobs/maintenance.ts). Within one follow-up a file's content
 * (its SHA-256) is uploaded once: the same file again, for the same or another document type, is refused
 * (409 DOCUMENT_DUPLICATE). docs/decisions/023-supporting-documents-and-layout-plans.md.
 */

/** The follow-up a file is uploaded for: the type chosen on the form and the request it answers. */
export interface UploadFollowUp {
  forType: string;
  requestId: number | null;
}

/** The follow-up of the query (`?forType=&requestId=`) or multipart fields; 400 when malformed. */
export function uploadFollowUpOf(fields: Readonly<Record<string, unknown>>): UploadFollowUp {
  const forType = typeof fields.forType === 'string' ? fields.forType.trim() : '';
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(forType)) throw fieldError(['forType'], 'case.uploadForType');
  const raw = fields.requestId;
  if (raw === undefined || raw === '') return { forType, requestId: null };
  const requestId = typeof raw === 'string' && /^[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(requestId) || requestId < 1 || requestId > 2_147_483_647)
    throw fieldError(['requestId'], 'case.uploadForType');
  return { forType, requestId };
}

/** The same content uploaded twice into one follow-up (of the same or another document type). */
export class DocumentDuplicateError extends ApiError {
  constructor(name: string, earlier: string, otherType: boolean) {
    super(
      409,
      'DOCUMENT_DUPLICATE',
      otherType ? 'documents.duplicateOtherType' : 'documents.duplicate',
      { fileName: name, sameAs: earlier },
      { params: { name, earlier } },
    );
  }
}

/** The document types an upload step of the catalogue accepts ('supportingDocument' ...). */
export const CASE_UPLOAD_TYPES: ReadonlySet<string> = new Set(
  Object.values(FOLLOW_UP_CATALOGUE).flatMap((d) =>
    d.steps.flatMap((s) => (s.kind === 'upload' ? s.documents.map((doc) => doc.id) : [])),
  ),
);

export interface CaseUploadService {
  list(session: AuthSession, followUp: UploadFollowUp): Promise<CaseUploadListData>;
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

/** The files waiting for this one follow-up of the case. */
const pendingFor = (applicationId: number, followUp: UploadFollowUp) =>
  and(
    pending(applicationId),
    eq(caseUploads.forType, followUp.forType),
    followUp.requestId === null
      ? isNull(caseUploads.requestId)
      : eq(caseUploads.requestId, followUp.requestId),
  );

/**
 * The most files one follow-up takes (a supporting document, a revised layout plan, an answer to a request):
 * beside the byte total, so that thousands of small files never reach the case officer as one submission.
 */
export const FOLLOW_UP_MAX_FILES = 20;

/** 409: the follow-up holds its most files already. */
export class DocumentTooManyError extends ApiError {
  constructor(max: number) {
    super(409, 'DOCUMENT_TOO_MANY', 'documents.tooMany', { maxFiles: max }, { params: { max } });
  }
}

export function createCaseUploadService({
  db,
  storage,
  clock,
  checker,
  limits,
  scanner,
  maxFiles = FOLLOW_UP_MAX_FILES,
}: {
  db: Db;
  storage: DocumentStorage;
  clock: Clock;
  checker: PdfChecker;
  limits: DocumentLimits;
  scanner: VirusScanner;
  maxFiles?: number;
}): CaseUploadService {
  return {
    async list(session, followUp) {
      const rows = await db
        .select()
        .from(caseUploads)
        .where(pendingFor(session.applicationId, followUp))
        .orderBy(asc(caseUploads.id));
      return {
        uploads: rows.map(toData),
        limits: { maxFileBytes: limits.maxFileBytes, maxTotalBytes: limits.maxTotalBytes },
      };
    },

    async upload(session, req) {
      // The total is that of one follow-up (an abandoned one's files, expiring, take no room from it), known
      // once the fields are read: while streaming only the file's limit applies, the total in the transaction.
      let followUp: UploadFollowUp | undefined;
      const received = await receiveCheckedPdf(req, {
        storage,
        limits,
        existing: [],
        checker,
        scanner,
        accept: (fields) => {
          if (!CASE_UPLOAD_TYPES.has(fields.documentType ?? ''))
            throw fieldError(['documentType'], 'documents.typeUnknown');
          followUp = uploadFollowUpOf(fields);
        },
      });
      const mine = followUp!;
      try {
        // The case's row is locked, so the total is that of the uploads recorded before, never a parallel one's.
        const row = await db.transaction(async (tx) => {
          const [app] = await tx
            .select({ id: applications.id })
            .from(applications)
            .where(eq(applications.id, session.applicationId))
            .for('update');
          if (!app) throw new NotFoundError('case.notFound');
          // Under the lock: the same content once per follow-up, even from two tabs at once.
          const [same] = await tx
            .select()
            .from(caseUploads)
            .where(and(pendingFor(app.id, mine), eq(caseUploads.sha256, received.sha256)))
            .limit(1);
          if (same)
            throw new DocumentDuplicateError(
              received.fileName,
              same.originalName,
              same.documentType !== (received.fields.documentType ?? ''),
            );
          const [inserted] = await tx
            .insert(caseUploads)
            .values({
              applicationId: app.id,
              documentType: received.fields.documentType ?? '',
              forType: mine.forType,
              requestId: mine.requestId,
              storageKey: received.storageKey,
              originalName: received.fileName,
              bytes: received.bytes,
              sha256: received.sha256,
              pageCount: received.pageCount,
              createdAt: clock.now(),
            })
            .returning();
          const rows = await tx
            .select({ bytes: caseUploads.bytes })
            .from(caseUploads)
            .where(pendingFor(app.id, mine));
          if (rows.reduce((sum, r) => sum + r.bytes, 0) > limits.maxTotalBytes)
            throw new DocumentTooLargeError('total', limits.maxTotalBytes);
          if (rows.length > maxFiles) throw new DocumentTooManyError(maxFiles);
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
 * transaction). Another case's file is 403; a file unknown, named twice or already taken is 400 (`uploads`);
 * so is a file uploaded for another follow-up (another document type chosen, or another request: `for`,
 * the request checked when given) and the same content twice (`uploads`): one submission never records
 * the same file twice, so never two "current" layout plans of one content.
 */
export async function waitingUploads(
  tx: Db,
  applicationId: number,
  ids: readonly number[],
  forFollowUp?: { forType: string; requestId?: number | null },
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
  if (
    forFollowUp &&
    rows.some(
      (r) =>
        r.forType !== forFollowUp.forType ||
        (forFollowUp.requestId !== undefined && r.requestId !== forFollowUp.requestId),
    )
  )
    throw fieldError(['uploads'], 'case.uploadOtherFollowUp');
  if (new Set(rows.map((r) => r.sha256)).size !== rows.length)
    throw fieldError(['uploads'], 'case.uploadDuplicate');
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
    /** The request the follow-up answers (null: none): its files must have been uploaded for it. */
    requestId: number | null;
    at: Date;
    downloadUntil: Date;
  },
): Promise<void> {
  if (take.ids.length === 0) return;
  const rows = await waitingUploads(tx, take.applicationId, take.ids, {
    forType: take.kind,
    requestId: take.requestId,
  });
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
