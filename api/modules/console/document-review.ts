import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import { documentReviews, type StaffAccountRow } from '../../../drizzle/schema';
import type { Language } from '../../../machines/rules/language';
import type {
  DocumentReviewData,
  DocumentReviewResult,
  documentReviewBodySchema,
} from '../../../machines/rules/document-review';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { ApiError, ForbiddenError, NotFoundError } from '../../http/errors';
import { translate } from '../../http/i18n';
import { assignmentOf, documentOf, documentsOf, insertAudit, latestReviews, reviewOf } from '../cases';
import type { StaffSession } from '../auth';
import type { MessageService } from '../shared';
import { documentTypeKey } from './applicant-words';
import { sendConsoleNotice } from './console-notices';
import * as repo from './console.repo';

/**
 * An officer's review of a case's document (docs/decisions/043-document-review.md): accepted, or needs
 * replacement with a reason the applicant reads next to the document and is emailed about. By an officer
 * who may act on the case (assigned, or a senior officer), as the console's actions; compare-and-set on
 * the review the officer saw; audited with the status before and after.
 */

export type DocumentReviewInput = z.output<typeof documentReviewBodySchema>;

/** 409 DOCUMENT_REVIEW_CHANGED: someone reviewed the document since the officer opened it; names who. */
export class DocumentReviewChangedError extends ApiError {
  constructor(review: DocumentReviewData | null, language: Language) {
    const who = review
      ? language === 'en'
        ? review.reviewedBy.nameEn
        : review.reviewedBy.nameZh
      : translate(language, 'staff.who.unknown');
    const status = translate(language, `staff.review.${review?.status ?? 'notReviewed'}`);
    super(409, 'DOCUMENT_REVIEW_CHANGED', 'staff.review.changed', { review }, { params: { who, status } });
  }
}

export function createDocumentReview(
  deps: { db: Db; clock: Clock; messages: MessageService; logger: Logger },
  mayAct: (staff: StaffAccountRow, assignedTo: number | null | undefined) => boolean,
) {
  const { db, clock } = deps;

  /** The document's newest review, as the console shows it (null: not reviewed). */
  async function current(applicationId: number, documentId: number): Promise<DocumentReviewData | null> {
    const documents = await documentsOf(db, applicationId);
    return (await latestReviews(db, applicationId, documents)).get(documentId) ?? null;
  }

  return async function review(
    session: StaffSession,
    applicationNo: string,
    documentId: number,
    body: DocumentReviewInput,
    { language }: { language: Language },
  ): Promise<DocumentReviewResult> {
    const staff = session.staff;
    // Not the officer's case: the same 403 whether or not it exists (as the console's actions).
    const found = await repo.applicationByNo(db, applicationNo);
    const assignment = found ? await assignmentOf(db, found.id) : undefined;
    if ((!found && staff.role !== 'seniorOfficer') || (found && !mayAct(staff, assignment?.staffId)))
      throw new ForbiddenError();
    if (!found) throw new NotFoundError('case.notFound');
    const document = await documentOf(db, found.id, documentId);
    if (!document) throw new NotFoundError('case.documentNotFound');

    const now = clock.now();
    const version = body.expectedVersion + 1;
    const written = await db.transaction(async (tx) => {
      // Under the case's lock: an assignment changed meanwhile counts.
      await repo.applicationByNo(tx, applicationNo, true);
      if (!mayAct(staff, (await assignmentOf(tx, found.id))?.staffId)) throw new ForbiddenError();
      const before = await reviewOf(tx, documentId);
      if ((before?.review.version ?? 0) !== body.expectedVersion) return null;
      const [row] = await tx
        .insert(documentReviews)
        .values({
          applicationId: found.id,
          documentId,
          version,
          status: body.status,
          reason: body.status === 'needsReplacement' ? body.reason : null,
          reviewedBy: staff.id,
          reviewedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) return null;
      // Ids and codes only: the reason stays in the review's row (version by version).
      await insertAudit(tx, {
        at: now,
        actor: staff.role,
        actorRef: `staff:${staff.id}`,
        event: 'document.review',
        applicationId: found.id,
        reference: null,
        before: { documentId, status: before?.review.status ?? 'notReviewed', version: body.expectedVersion },
        after: { documentId, status: body.status, version },
      });
      return row;
    });
    if (!written) throw new DocumentReviewChangedError(await current(found.id, documentId), language);

    if (body.status === 'needsReplacement') {
      const typeKey = documentTypeKey(found.formCode, document.kind);
      await sendConsoleNotice(deps, found, 'document.review', () => ({
        document: typeKey ? `forms:${typeKey}` : document.fileName,
        file: document.fileName,
        reason: body.reason,
      }));
    }
    return {
      documentId,
      review: {
        status: body.status,
        reason: written.reason,
        version,
        reviewedBy: { id: staff.id, nameEn: staff.nameEn, nameZh: staff.nameZh },
        reviewedAt: now.toISOString(),
        replacedBy: null,
      },
    };
  };
}
