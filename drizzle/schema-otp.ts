import {
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { applications } from './schema-core';
import { drafts } from './schema-drafts';

/**
 * A one-time password. Nothing here reveals who asked: `keyHash` is an HMAC of the application number
 * and the contact, `applicationKeyHash` an HMAC of the application number alone (the unit of the send
 * limits and the lockout), `codeHash` an HMAC of the code. `applicationId` is null when the number is
 * unknown or the contact is not the one on file: such a row holds a random code that is never sent.
 */
export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: serial('id').primaryKey(),
    keyHash: text('key_hash').notNull(),
    applicationKeyHash: text('application_key_hash').notNull(),
    applicationId: integer('application_id').references(() => applications.id, { onDelete: 'cascade' }),
    /**
     * For purpose 'resume': the saved draft the code is for (null when the number is unknown or the
     * contact is not the one in the draft). Deleted with the draft.
     */
    draftId: integer('draft_id').references((): AnyPgColumn => drafts.id, { onDelete: 'cascade' }),
    /** 'login' | 'contact' | 'resume' */
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** Set by the last allowed wrong try; three within an hour lock the application number. */
    burntAt: timestamp('burnt_at', { withTimezone: true }),
    /** A newer code for the same key replaced this one. */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    /** The message left (SMTP accepted it, or it reached the outbox or the SMS gateway). */
    delivered: boolean('delivered').notNull().default(false),
  },
  (table) => [
    index('otp_challenges_key_idx').on(table.keyHash, table.purpose, table.createdAt),
    index('otp_challenges_application_key_idx').on(table.applicationKeyHash, table.burntAt),
    index('otp_challenges_draft_idx').on(table.draftId),
  ],
);

export type OtpChallengeRow = typeof otpChallenges.$inferSelect;
