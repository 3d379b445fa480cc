import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { applications, caseActions } from './schema-core';

/**
 * Every version of a case's information (docs/decisions/019-case-versions.md): version 1 is the
 * application as submitted, each Update Application and School / Centre Information adds the next version
 * with the whole answers as they then are. A version is never updated or deleted: the latest is what the
 * next update, the PDF and the department see. `reference` is the application number for version 1, the
 * update's reference after; `actionId` the follow-up that made it (null for version 1).
 */
export const caseVersions = pgTable(
  'case_versions',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    reference: text('reference').notNull(),
    /** 'APPLICANT' | 'AP' | 'RSE' | 'BD' (as a history row's "submitted by"). */
    submittedBy: text('submitted_by').notNull(),
    actionId: integer('action_id').references(() => caseActions.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('case_versions_application_version_uq').on(table.applicationId, table.version),
    index('case_versions_application_idx').on(table.applicationId),
  ],
);

export type CaseVersionRow = typeof caseVersions.$inferSelect;
