import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { applications, caseDocuments } from './schema-core';
import { staffAccounts } from './schema-staff';

/**
 * The officer's review of a case's document (docs/decisions/043-document-review.md): one row per review,
 * never updated, `version` 1, 2, ... per document; the newest is the document's review now. A document
 * without a row is not reviewed. The unique (document, version) is the compare-and-set: two officers
 * reviewing the same version at once, one row is written and the other gets 409.
 */
export const documentReviews = pgTable(
  'document_reviews',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    documentId: integer('document_id')
      .notNull()
      .references(() => caseDocuments.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** 'accepted' | 'needsReplacement' (DOCUMENT_REVIEW_STATUSES). */
    status: text('status').notNull(),
    /** Needs replacement: what is wrong, in the officer's words (shown to the applicant as written). */
    reason: text('reason'),
    reviewedBy: integer('reviewed_by')
      .notNull()
      .references(() => staffAccounts.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('document_reviews_document_version_uq').on(table.documentId, table.version),
    index('document_reviews_application_idx').on(table.applicationId),
  ],
);

export type DocumentReviewRow = typeof documentReviews.$inferSelect;
