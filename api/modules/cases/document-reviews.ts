import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { documentReviews, staffAccounts, type CaseDocumentRow } from '../../../drizzle/schema';
import type { CaseHistoryRowData } from '../../../machines/rules/case';
import {
  isDocumentReviewStatus,
  replacementOf,
  type DocumentReviewData,
} from '../../../machines/rules/document-review';

/**
 * The officers' reviews of a case's documents (docs/decisions/043-document-review.md): the newest review
 * of each document, with who made it, and for one needing replacement the document that replaced it.
 * Read by the console's case view and, for what needs replacement, by the applicant's and AP's case page.
 */

/** The newest review of each of the case's documents, by document id. */
export async function latestReviews(
  db: Db,
  applicationId: number,
  documents: readonly Pick<CaseDocumentRow, 'id' | 'kind' | 'createdAt'>[],
): Promise<Map<number, DocumentReviewData>> {
  const rows = await db
    .select({ review: documentReviews, nameEn: staffAccounts.nameEn, nameZh: staffAccounts.nameZh })
    .from(documentReviews)
    .innerJoin(staffAccounts, eq(staffAccounts.id, documentReviews.reviewedBy))
    .where(eq(documentReviews.applicationId, applicationId))
    .orderBy(desc(documentReviews.version));
  const latest = new Map<number, DocumentReviewData>();
  for (const { review, nameEn, nameZh } of rows) {
    const document = documents.find((d) => d.id === review.documentId);
    if (latest.has(review.documentId) || !document || !isDocumentReviewStatus(review.status)) continue;
    latest.set(review.documentId, {
      status: review.status,
      reason: review.reason,
      version: review.version,
      reviewedBy: { id: review.reviewedBy, nameEn, nameZh },
      reviewedAt: review.reviewedAt.toISOString(),
      replacedBy: replacementOf(review, document, documents),
    });
  }
  return latest;
}

/** The newest review of one document (under the caller's transaction), for the compare-and-set. */
export async function reviewOf(db: Db, documentId: number) {
  const [row] = await db
    .select({ review: documentReviews, nameEn: staffAccounts.nameEn, nameZh: staffAccounts.nameZh })
    .from(documentReviews)
    .innerJoin(staffAccounts, eq(staffAccounts.id, documentReviews.reviewedBy))
    .where(eq(documentReviews.documentId, documentId))
    .orderBy(desc(documentReviews.version))
    .limit(1);
  return row;
}

/**
 * The case page's history rows with, next to each document that needs replacement, the officer's reason
 * as written and the document that replaced it (accepted and not reviewed show nothing to the parties).
 */
export async function withApplicantReviews(
  db: Db,
  applicationId: number,
  documents: readonly CaseDocumentRow[],
  rows: CaseHistoryRowData[],
): Promise<CaseHistoryRowData[]> {
  const reviews = await latestReviews(db, applicationId, documents);
  return rows.map((row) => ({
    ...row,
    documents: row.documents.map((d) => {
      const review = reviews.get(d.id);
      return review?.status === 'needsReplacement' && review.reason
        ? {
            ...d,
            review: {
              status: review.status,
              reason: review.reason,
              reviewedAt: review.reviewedAt,
              replacedBy: review.replacedBy,
            },
          }
        : d;
    }),
  }));
}
