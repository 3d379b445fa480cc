import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Reference values the portal reads at run time, looked up by (type, code).
 * Example: type `admin_setting`, code `logout_idletime_frontend`, dataValue `30` (idle minutes).
 * A (type, code) pair may hold several values, ordered by sortOrder.
 */
export const masterData = pgTable(
  'master_data',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    code: text('code').notNull(),
    dataValue: text('data_value').notNull(),
    description: text('description'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (table) => [
    // Also serves lookups by (type, code): they are the index's leading columns.
    uniqueIndex('master_data_type_code_value_uq').on(table.type, table.code, table.dataValue),
  ],
);

export type MasterDataRow = typeof masterData.$inferSelect;
export type NewMasterDataRow = typeof masterData.$inferInsert;

/**
 * An application as "Find my case" knows it: the number the applicant logs in with, the contact a
 * one-time password goes to, and the language messages are written in. `status` and `applicationType`
 * are codes (machines/rules/history.ts).
 */
export const applications = pgTable(
  'applications',
  {
    id: serial('id').primaryKey(),
    applicationNo: text('application_no').notNull().unique('applications_application_no_uq'),
    formCode: text('form_code').notNull(),
    applicationType: text('application_type').notNull(),
    status: text('status').notNull(),
    applicantNameEn: text('applicant_name_en'),
    applicantNameZh: text('applicant_name_zh'),
    email: text('email'),
    /** Hong Kong mobile, 8 digits. */
    mobile: text('mobile'),
    /** 'en' | 'sc' | 'tc': the language of messages sent to the applicant. */
    language: text('language').notNull().default('tc'),
    premisesAddressEn: text('premises_address_en'),
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
    /**
     * What the console's search box finds the case by (docs/decisions/034-console-search.md): number, names,
     * school or centre, premises, BD references, lower-cased and folded to Simplified Chinese. NULL means
     * "to be indexed": triggers set it so when what it is made of changes, and the API fills it.
     */
    searchText: text('search_text'),
  },
  (table) => [
    index('applications_search_trgm').using('gin', table.searchText.op('gin_trgm_ops')),
    index('applications_search_pending')
      .on(table.id)
      .where(sql`${table.searchText} is null`),
  ],
);

/** One row per event of an application, shown newest first in "Find my case". Codes, not text. */
export const applicationHistory = pgTable(
  'application_history',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    submissionDate: timestamp('submission_date', { withTimezone: true }).notNull(),
    documentType: text('document_type').notNull(),
    status: text('status').notNull(),
    /** 'APPLICANT' | 'AP' | 'RSE' | 'BD' */
    submittedBy: text('submitted_by').notNull(),
    date: timestamp('date', { withTimezone: true }).notNull(),
    /** The follow-up that made the row (its reference, e.g. INS-A2-2026-001024-1), if any. */
    reference: text('reference'),
  },
  (table) => [index('application_history_application_idx').on(table.applicationId, table.submissionDate)],
);

/** Events counted by the rate limits (sliding windows): `key` is an HMAC, `kind` what was done. */
export const rateEvents = pgTable(
  'rate_events',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    /** 'otp.send.application' | 'otp.send.address' */
    kind: text('kind').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [index('rate_events_key_kind_at_idx').on(table.key, table.kind, table.at)],
);

/**
 * The counters of the request rate limits (api/http/rate-limit.ts), kept by rate-limiter-flexible's
 * RateLimiterDrizzle: `key` is `<limiter>:<HMAC of the caller>`, `points` what was spent in the window that
 * ends at `expire`. In Postgres so that every process counts the same requests.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});

/** A logged-in browser. The token itself is never stored, only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_uq'),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** The idle time-out in force when the session began (master data logout_idletime_frontend). */
    idleMinutes: integer('idle_minutes').notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_application_idx').on(table.applicationId)],
);

/**
 * Every message the portal sends, whatever the transport: 'smtp' (sent by email), 'sms-gateway' (sent
 * to the SMS gateway) or 'outbox' (kept here only, read in development at /api/dev/outbox).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    /** 'email' | 'sms' */
    channel: text('channel').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    language: text('language').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    transport: text('transport').notNull(),
    error: text('error'),
  },
  (table) => [index('outbox_created_idx').on(table.createdAt)],
);

/**
 * The hand-over of each outbox message to its mail server or SMS gateway, once
 * (docs/decisions/032-runtime-limits.md). An attempt inserts the row (`handing-over`) just before the
 * message leaves; the insert succeeds for one attempt only. `sent` once the server accepted it. A row
 * left `handing-over` means the process stopped during the hand-over: the message may have left, so no
 * attempt sends it again (the outbox row's `error` says so).
 */
export const messageDeliveries = pgTable('message_deliveries', {
  outboxId: integer('outbox_id')
    .primaryKey()
    .references(() => outbox.id, { onDelete: 'cascade' }),
  /** 'handing-over' | 'sent' */
  state: text('state').notNull(),
  /** The Message-ID header of the email (or the gateway's idempotency key): the same on every attempt. */
  messageId: text('message_id').notNull(),
  /** The job attempt that handed it over. */
  attempt: text('attempt').notNull(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/**
 * The numbers of applications: `<FORM CODE>-<YYYY>-<sequence, at least 6 digits>` (A2-2026-001024).
 * One sequence for every form, so a number is unique whatever the form; it starts at 1000, above the
 * demo applications' numbers. Numbers do not restart each year.
 */
export const applicationNoSequence = pgSequence('application_no_seq', { startWith: 1000, minValue: 1 });

/**
 * Public Hong Kong addresses for the address search (GET /api/address), kept in the shape of the
 * government's Address Lookup Service (api/adapters/address.ts). Seeded by drizzle/address-seed.ts.
 * `searchText` is the normalised English and Chinese text the search matches against.
 */
export const addresses = pgTable('addresses', {
  id: serial('id').primaryKey(),
  /** Our stable id of the entry (ALS answers a GeoAddress; ours start with 'BD'). */
  geoAddress: text('geo_address').notNull().unique('addresses_geo_address_uq'),
  buildingNameEn: text('building_name_en'),
  buildingNameZh: text('building_name_zh'),
  estateNameEn: text('estate_name_en'),
  estateNameZh: text('estate_name_zh'),
  blockEn: text('block_en'),
  blockZh: text('block_zh'),
  streetNameEn: text('street_name_en'),
  streetNameZh: text('street_name_zh'),
  buildingNoFrom: text('building_no_from'),
  buildingNoTo: text('building_no_to'),
  locationEn: text('location_en'),
  locationZh: text('location_zh'),
  districtEn: text('district_en').notNull(),
  districtZh: text('district_zh').notNull(),
  /** 'HK' | 'KLN' | 'NT' */
  region: text('region').notNull(),
  /** New Territories lots: 'Lot No. 1234 in D.D. 112' as lot '1234' and demarcation district '112'. */
  lotNo: text('lot_no'),
  ddNo: text('dd_no'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  searchText: text('search_text').notNull(),
});

/**
 * A follow-up on a submitted case (withdraw, request an inspection, and later updates, documents and
 * appointments): the answers as validated by the form's schema, the status before and after (the case
 * lifecycle's), who sent it. One per (application, Idempotency-Key): a retry gets the same answer.
 */
export const caseActions = pgTable(
  'case_actions',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The follow-up form's key ('withdrawApplication', 'requestForInspection'). */
    formKey: text('form_key').notNull(),
    /** `<form code>-<application number>-<n>`, shown to the applicant. */
    reference: text('reference').notNull().unique('case_actions_reference_uq'),
    idempotencyKey: text('idempotency_key').notNull(),
    answers: jsonb('answers').notNull(),
    statusBefore: text('status_before').notNull(),
    statusAfter: text('status_after').notNull(),
    /** A CaseActor: 'applicant' | 'ap' | 'rse' | 'caseOfficer' | 'seniorOfficer' | 'system'. */
    actor: text('actor').notNull(),
    language: text('language').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('case_actions_application_key_uq').on(table.applicationId, table.idempotencyKey),
    index('case_actions_application_idx').on(table.applicationId, table.createdAt),
  ],
);

/**
 * The audit trail (docs/decisions/033-audit-log.md): every action of a person or of the portal, who
 * (`actor`: the role; `actorRef`: an id), what (`event`, an action code), when (UTC), from where and in
 * which request, with ids only. Append-only: owned by the role `bd_audit_owner`, written only through the
 * SQL function `audit_append` (api/modules/shared/audit.ts), each row chained to the one before by
 * `hash` (`npm run audit:verify`). The application's role may only read it.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** The role: applicant, ap, rse, a staff role (caseOfficer, seniorOfficer, admin), anonymous, system. */
    actor: text('actor').notNull(),
    /** Who exactly, as an id: `session:<id>`, `staff:<id>`, `draft:<id>`, `anonymous`, `system`. */
    actorRef: text('actor_ref').notNull(),
    /** The action code ('case.withdraw', 'staff.signIn', 'document.download' ...). */
    event: text('event').notNull(),
    /** The case (or draft) the action is about; no foreign key: the record outlives a purged row. */
    applicationId: integer('application_id'),
    reference: text('reference'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The address the request came from (req.ip: the client's, behind a trusted proxy). */
    address: text('address'),
    /** The request's id (pino-http's req.id, the answer's X-Request-Id). */
    requestId: text('request_id'),
    /** The hash of the row before (null for the first row). */
    prevHash: text('prev_hash'),
    /** sha256 over prevHash and this row's canonical content (drizzle/migrations/0021_audit_log.sql). */
    hash: text('hash').notNull(),
  },
  (table) => [index('audit_events_application_idx').on(table.applicationId, table.at)],
);

/**
 * A document of a case: what was submitted with the application (the signed application form and the
 * uploaded documents, copied by reference at submission) and what later follow-ups or the department add.
 * The bytes stay where they are in the document storage; `historyId` is the history row it belongs to.
 * `downloadUntil` is the end of the download window for what the applicant submitted (7 days, spec §4);
 * null for what the department issues.
 */
export const caseDocuments = pgTable(
  'case_documents',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    historyId: integer('history_id').references(() => applicationHistory.id, { onDelete: 'set null' }),
    /** 'application' (the signed form) or a RequiredDocument id of the catalogue ('layoutPlans' ...). */
    kind: text('kind').notNull(),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    bytes: integer('bytes'),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    downloadUntil: timestamp('download_until', { withTimezone: true }),
  },
  (table) => [index('case_documents_application_idx').on(table.applicationId)],
);

export type ApplicationRow = typeof applications.$inferSelect;
export type NewApplicationRow = typeof applications.$inferInsert;
export type NewApplicationHistoryRow = typeof applicationHistory.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;
export type NewAddressRow = typeof addresses.$inferInsert;
export type CaseActionRow = typeof caseActions.$inferSelect;
export type CaseDocumentRow = typeof caseDocuments.$inferSelect;
