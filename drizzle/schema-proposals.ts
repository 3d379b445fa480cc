import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { applications } from './schema-core';
import { staffAccounts } from './schema-staff';

/**
 * Decisions by two people and internal notes (docs/decisions/040-four-eyes-decisions.md). A proposal is a
 * certificate, a rejection or a revocation proposed by one officer and made only when a senior officer who
 * did not propose approves it: `state` 'pending' | 'sentBack' | 'approved' | 'withdrawn', at most one
 * pending per case. Internal notes are the officers' own words on a case: the applicant's and the AP's
 * APIs and the PDFs never read this table.
 */
export const decisionProposals = pgTable(
  'decision_proposals',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The decision's lifecycle event: 'certificate.issue' | 'case.reject' | 'certificate.revoke'. */
    decision: text('decision').notNull(),
    /** The decision's answers as proposed (validated by its CONSOLE_ACTION_SCHEMAS entry). */
    answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
    state: text('state').notNull(),
    proposedBy: integer('proposed_by')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'restrict' }),
    proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull(),
    /** The proposing action's reference (PRP-…). */
    reference: text('reference').notNull(),
    decidedBy: integer('decided_by').references(() => staffAccounts.id, { onDelete: 'restrict' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The senior officer's note when sent back. */
    note: text('note'),
    /** The reference of the decision made on approval (CRT-…, REJ-…, CRV-…). */
    decisionReference: text('decision_reference'),
  },
  (table) => [
    index('decision_proposals_application_idx').on(table.applicationId),
    uniqueIndex('decision_proposals_pending_uq')
      .on(table.applicationId)
      .where(sql`${table.state} = 'pending'`),
  ],
);

export const internalNotes = pgTable(
  'internal_notes',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'restrict' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('internal_notes_application_idx').on(table.applicationId, table.createdAt)],
);

export type DecisionProposalRow = typeof decisionProposals.$inferSelect;
export type InternalNoteRow = typeof internalNotes.$inferSelect;
