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
import { applications, caseActions, sessions } from './schema-core';

/**
 * The person behind a registration number (docs/decisions/025-registration-holders.md): established by the
 * FIRST acceptance of the number, with the contacts that acceptance proved by a one-time code and the signer
 * of its declaration. Every later appointment of the number is sent to these contacts, whatever the applicant
 * typed; the appointee's login and case list rest on them. Only the holder changes them.
 */
export const registrationHolders = pgTable(
  'registration_holders',
  {
    id: serial('id').primaryKey(),
    /** Normalised: "AP(A) 1234", "RSE 567" (machines/rules/registration.ts). */
    registrationNumber: text('registration_number').notNull(),
    /** 'ap' | 'rse' */
    identity: text('identity').notNull(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh'),
    /** Proved by a one-time code at the first acceptance (or at a contact change). */
    email: text('email').notNull(),
    /** Hong Kong mobile, 8 digits, proved as the email. */
    mobile: text('mobile').notNull(),
    /** The signer of the first accepted declaration (`appointment_signings.signer`). */
    signer: jsonb('signer'),
    /** Messages to the holder outside a case (a contact change) are in this language and English. */
    language: text('language').notNull(),
    establishedAt: timestamp('established_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /**
     * Set when the department reset the holder (docs/console.md, "Registered AP/RSE"): the row is kept as
     * history, the number has no holder until its next acceptance establishes a new one.
     */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The staff account that reset it (`staff_accounts.id`). */
    endedBy: integer('ended_by'),
    /** The officer's reason, as typed. */
    endReason: text('end_reason'),
  },
  (table) => [
    // One current holder per number; ended holders stay beside it as its history.
    uniqueIndex('registration_holders_number_uq')
      .on(table.registrationNumber, table.identity)
      .where(sql`ended_at IS NULL`),
  ],
);

/**
 * Appointments of an Authorized Person (AP) or Registered Structural Engineer (RSE) to a case (docs/decisions/020-appointments.md,
 * docs/decisions/020-appointments.md). An appointment is made by the applicant's `appointment` follow-up
 * (INVITED), accepted by the appointee with a one-time password and a signed declaration (ACTIVE), and ends
 * as CANCELLED (an invitation withdrawn, or replaced by a newer one before it was accepted), REVOKED (by the
 * applicant, with a reason), REPLACED (a newer appointment of the same role was accepted) or LAPSED (the
 * registration expired). A case has at most one ACTIVE appointment and one open invitation per role (the
 * partial unique indexes hold it under any number of processes).
 */
export const appointments = pgTable(
  'appointments',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The follow-up that made it. */
    caseActionId: integer('case_action_id').references(() => caseActions.id, { onDelete: 'set null' }),
    /** 'ap' | 'rse' */
    identity: text('identity').notNull(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh'),
    /** Normalised: "AP(A) 1234", "RSE 567" (machines/rules/registration.ts). */
    registrationNumber: text('registration_number').notNull(),
    email: text('email').notNull(),
    /** Hong Kong mobile, 8 digits. */
    mobile: text('mobile').notNull(),
    /** YYYY-MM-DD: the registration's expiry; the appointment lapses the day after. */
    expiryDate: text('expiry_date').notNull(),
    /** 'INVITED' | 'ACTIVE' | 'CANCELLED' | 'REVOKED' | 'REPLACED' | 'LAPSED' */
    status: text('status').notNull(),
    /** The applicant's language when it was made (the invitation is in it and in English). */
    language: text('language').notNull(),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
    /** The accepted declaration's signature: method, reference, and what the service or certificate said. */
    signature: jsonb('signature'),
    /** When the notice "the registration expires in 14 days" went (once per appointment). */
    expiryNoticeAt: timestamp('expiry_notice_at', { withTimezone: true }),
    /**
     * The registration's holder who accepted it (set at acceptance): the appointee's login reaches only
     * ACTIVE appointments that have it (docs/decisions/025-registration-holders.md).
     */
    holderId: integer('holder_id').references(() => registrationHolders.id, { onDelete: 'set null' }),
    /** True when the contacts are the holder's, not the ones the applicant typed (the applicant sees them masked). */
    registeredContacts: boolean('registered_contacts').notNull().default(false),
  },
  (table) => [
    index('appointments_application_idx').on(table.applicationId),
    index('appointments_registration_idx').on(table.registrationNumber, table.status),
    uniqueIndex('appointments_one_active_uq')
      .on(table.applicationId, table.identity)
      .where(sql`status = 'ACTIVE'`),
    uniqueIndex('appointments_one_invited_uq')
      .on(table.applicationId, table.identity)
      .where(sql`status = 'INVITED'`),
  ],
);

/**
 * The link of an invitation: only the SHA-256 of its random token is stored; single use, expiring, bound to
 * its appointment. `confirmedAt`: the appointee proved the email or mobile by a one-time password.
 */
export const appointmentInvitations = pgTable('appointment_invitations', {
  id: serial('id').primaryKey(),
  appointmentId: integer('appointment_id')
    .notNull()
    .references(() => appointments.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique('appointment_invitations_token_uq'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * One signing of a declaration of appointment (iAM Smart or e-Cert): what is signed (`digest`, the SHA-256
 * of the declaration) and how it ended. Kept apart from `signing_requests`, which belong to drafts.
 */
export const appointmentSignings = pgTable(
  'appointment_signings',
  {
    id: serial('id').primaryKey(),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    /** 'iamsmart' | 'ecert' */
    method: text('method').notNull(),
    requestId: text('request_id').notNull().unique('appointment_signings_request_uq'),
    externalId: text('external_id'),
    identificationCode: text('identification_code'),
    digest: text('digest').notNull(),
    /** 'pending' | 'signed' | 'failed' | 'expired' | 'cancelled' */
    status: text('status').notNull(),
    code: text('code'),
    signer: jsonb('signer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('appointment_signings_appointment_idx').on(table.appointmentId)],
);

/** The AP or RSE behind a session of role 'ap' | 'rse' (the session's case is the one they chose). */
export const appointeeSessions = pgTable('appointee_sessions', {
  sessionId: integer('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  registrationNumber: text('registration_number').notNull(),
  identity: text('identity').notNull(),
});

export type AppointmentRow = typeof appointments.$inferSelect;
export type RegistrationHolderRow = typeof registrationHolders.$inferSelect;
