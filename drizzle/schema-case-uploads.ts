import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { applications, caseActions } from './schema-core';

/**
 * Files uploaded for a follow-up of a case (Submit Supporting Document, docs/decisions/019-case-versions.md;
 * docs/decisions/019-case-versions.md): checked like the application's uploads (landscape A4/A3 PDF, the
 * limits, ClamAV) and kept here until the follow-up that carries them is made, which moves each into
 * `case_documents` under its history row and sets `actionId`. Rows never taken are purged like drafts.
 */
export const caseUploads = pgTable(
  'case_uploads',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The upload step's document type ('supportingDocument'). */
    documentType: text('document_type').notNull(),
    /**
     * The follow-up it was uploaded for: the document type chosen on the form (`answers.documentType`,
     * 'layoutPlans', 'other' ...) and the department's request it answers, if any. Only a submission of that
     * type and request takes it (docs/decisions/023-supporting-documents-and-layout-plans.md).
     */
    forType: text('for_type').notNull().default(''),
    requestId: integer('request_id'),
    storageKey: text('storage_key').notNull(),
    originalName: text('original_name').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    pageCount: integer('page_count').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The follow-up that took it (then it is a case document and no longer removable). */
    actionId: integer('action_id').references(() => caseActions.id, { onDelete: 'set null' }),
  },
  (table) => [index('case_uploads_application_idx').on(table.applicationId)],
);

export type CaseUploadRow = typeof caseUploads.$inferSelect;
