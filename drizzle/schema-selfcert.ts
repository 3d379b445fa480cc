import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { applications } from './schema-core';

/**
 * A self-certification (SCS-1, SCS-2, SCC-1, SCC-2, SCN-1) and the case it certifies (docs/decisions/021-self-certification.md): written
 * in the submission's transaction, one row per submitted self-certification. The certifier's registration
 * number is kept as normalised ("AP(A) 1234") so the department can check it against the appointment.
 */
export const selfCertifications = pgTable(
  'self_certifications',
  {
    id: serial('id').primaryKey(),
    /** The self-certification as submitted (its own application number and history). */
    applicationId: integer('application_id')
      .notNull()
      .unique('self_certifications_application_uq')
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The case certified: an application of a matching form (machines/rules/selfcert.ts). */
    caseApplicationId: integer('case_application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    certifierRegistrationNo: text('certifier_registration_no').notNull(),
    /** 'ap' | 'rse' */
    certifierIdentity: text('certifier_identity').notNull(),
    lorReference: text('lor_reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('self_certifications_case_idx').on(t.caseApplicationId)],
);

export type SelfCertificationRow = typeof selfCertifications.$inferSelect;
