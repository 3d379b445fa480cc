import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { applications } from './schema-core';

/**
 * The department's side (docs/decisions/022-case-officer-console.md): staff accounts with a
 * password (argon2id) and a second factor (TOTP), their sessions, the officer assigned to each case, the
 * requests for further information and the messages on a case. Applicants never reach these tables.
 */

/** A member of staff. `role`: 'caseOfficer' | 'seniorOfficer' | 'admin'. */
export const staffAccounts = pgTable('staff_accounts', {
  id: serial('id').primaryKey(),
  /** The sign-in name, lower case. */
  username: text('username').notNull().unique('staff_accounts_username_uq'),
  role: text('role').notNull(),
  nameEn: text('name_en').notNull(),
  nameZh: text('name_zh').notNull(),
  /** The post, e.g. "Building Surveyor / 屋宇測量師". */
  postEn: text('post_en').notNull(),
  postZh: text('post_zh').notNull(),
  telephone: text('telephone').notNull(),
  email: text('email').notNull(),
  /** The language the officer's emails are written in ('en' | 'sc' | 'tc'): the inbox digest (decision 039). */
  language: text('language').notNull().default('en'),
  /** argon2id (PHC string). */
  passwordHash: text('password_hash').notNull(),
  /** The TOTP secret (base32). A deployment behind the department's identity provider leaves sign-in to it. */
  totpSecret: text('totp_secret').notNull(),
  /** The last TOTP time step accepted: a code is never accepted twice. */
  totpLastStep: integer('totp_last_step'),
  active: boolean('active').notNull().default(true),
  /**
   * A new TOTP is to be enrolled (a new account, or an admin's reset): the secret above is not accepted
   * yet; the officer signs in with the password and the one-time enrolment code (a recovery code) and
   * confirms a code of the new secret (docs/decisions/036-staff-administration.md).
   */
  totpPending: boolean('totp_pending').notNull().default(false),
  /** The last successful sign-in. */
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});

/** One-time recovery codes of a staff account (SHA-256 only), used instead of a TOTP code once each. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('staff_recovery_codes_staff_idx').on(table.staffId)],
);

/** A signed-in member of staff (an HttpOnly cookie of its own; only the token's SHA-256 is kept). */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique('staff_sessions_token_hash_uq'),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    idleMinutes: integer('idle_minutes').notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('staff_sessions_staff_idx').on(table.staffId)],
);

/** The officer a case is assigned to (one per case; reassigning replaces it, the audit trail keeps the past). */
export const caseAssignments = pgTable('case_assignments', {
  applicationId: integer('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  staffId: integer('staff_id')
    .notNull()
    .references(() => staffAccounts.id, { onDelete: 'restrict' }),
  assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull(),
  assignedBy: integer('assigned_by')
    .notNull()
    .references(() => staffAccounts.id, { onDelete: 'restrict' }),
  /** When the officer's contact details were sent (the case acknowledged). */
  contactSentAt: timestamp('contact_sent_at', { withTimezone: true }),
});

/**
 * A request for further information: document types of the case's form's list (RequiredDocument ids, or
 * 'other' with the officer's description) and/or questions, with a reply-by date (ISO, Hong Kong). Answered when the applicant submits documents for it.
 */
export const informationRequests = pgTable(
  'information_requests',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'restrict' }),
    documentTypes: jsonb('document_types').$type<string[]>().notNull(),
    /** The officer's description of the "Other" document, when `document_types` holds 'other'. */
    otherDocument: text('other_document'),
    note: text('note'),
    replyBy: text('reply_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** The follow-up (case_actions.id) that answered it. */
    answeredBy: integer('answered_by'),
    /** Withdrawn by the department (information.withdraw): no longer asked for. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /** The reply-by dates before an extension (information.extend), oldest first. */
    earlierReplyBy: jsonb('earlier_reply_by').$type<string[]>().notNull().default([]),
  },
  (table) => [index('information_requests_application_idx').on(table.applicationId)],
);

/** A message on a case, from the officer ('BD') or the applicant ('APPLICANT' | 'AP' | 'RSE'). */
export const caseMessages = pgTable(
  'case_messages',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    sender: text('sender').notNull(),
    staffId: integer('staff_id').references(() => staffAccounts.id, { onDelete: 'restrict' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('case_messages_application_idx').on(table.applicationId, table.createdAt)],
);

/** What the department issued on a case (LoR, inspection notice, certificate): its data, kept with the PDF. */
export const issuedDocuments = pgTable(
  'issued_documents',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The lifecycle event that issued it ('lor.issue', 'inspection.schedule', 'certificate.issue' ...). */
    event: text('event').notNull(),
    reference: text('reference').notNull(),
    data: jsonb('data').notNull(),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'restrict' }),
    caseDocumentId: integer('case_document_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('issued_documents_reference_uq').on(table.reference)],
);

export type StaffAccountRow = typeof staffAccounts.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;
export type InformationRequestRow = typeof informationRequests.$inferSelect;
