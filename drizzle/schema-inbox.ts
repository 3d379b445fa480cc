import { index, integer, jsonb, pgTable, primaryKey, serial, timestamp } from 'drizzle-orm/pg-core';
import { applications } from './schema-core';
import { staffAccounts } from './schema-staff';

/**
 * The officer's inbox (docs/decisions/039-officer-inbox.md): when each officer last opened each case (the
 * "New activity" marker is what the applicant or AP did since), how far each officer has read their
 * notices and been sent the digest, and the digests themselves. The activity itself is not copied: it is
 * the case's own rows (case_actions by a party, case_messages not from the department).
 */

/** When `staff_id` last opened the case page of `application_id`. */
export const caseSeen = pgTable(
  'case_seen',
  {
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.staffId, table.applicationId] })],
);

/** One row per officer: the notices read up to `notices_read_at`, the digest sent up to `digest_through`. */
export const officerInboxState = pgTable('officer_inbox_state', {
  staffId: integer('staff_id')
    .primaryKey()
    .references(() => staffAccounts.id, { onDelete: 'cascade' }),
  noticesReadAt: timestamp('notices_read_at', { withTimezone: true }),
  /** The newest activity the last digest listed. */
  digestThrough: timestamp('digest_through', { withTimezone: true }),
  /** When the last digest was made: the next comes no sooner than OFFICER_DIGEST_MINUTES after. */
  digestAt: timestamp('digest_at', { withTimezone: true }),
});

/** A digest email to an officer: what it lists, made under the officer's row lock, sent by a durable job. */
export const officerDigests = pgTable(
  'officer_digests',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    /** [{ applicationNo, kinds: ActivityKind[] }], the cases in the order listed. */
    items: jsonb('items').$type<{ applicationNo: string; kinds: string[] }[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When its message was queued (null: not yet; the next scan queues it). */
    queuedAt: timestamp('queued_at', { withTimezone: true }),
  },
  (table) => [index('officer_digests_staff_idx').on(table.staffId)],
);
