/**
 * An application from its draft to its submission: the draft and the tokens that open it, the files
 * uploaded for it, its signings (iAM Smart or e-Cert) and the submission it ends in. Re-exported by
 * schema.ts.
 */
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { StoredVerifiedContacts } from '../machines/rules/drafts';
import { applications } from './schema-core';

/**
 * An application being filled in ("save and resume"). The number is issued when the draft is created.
 * Saves carry `version` (optimistic concurrency: a save names the version it read, and only that one is
 * replaced). A draft is valid until `validUntil`, DRAFT_VALIDITY_DAYS (default 14) after its last save;
 * expired drafts are purged. `contactEmail` / `contactMobile` are taken from the answers
 * (applicantEmail, applicantMobile), normalised: a one-time code to resume goes there.
 */
export const drafts = pgTable(
  'drafts',
  {
    id: serial('id').primaryKey(),
    applicationNo: text('application_no').notNull().unique('drafts_application_no_uq'),
    /** The catalogue key ('a2', 'cccaiC2', 'scs1' ...) and the code printed on the form ('A2', 'CCCAI-C2'). */
    formKey: text('form_key').notNull(),
    formCode: text('form_code').notNull(),
    answers: jsonb('answers').notNull().default({}),
    /** The wizard step the applicant was on (1-based step number), null before the first save of one. */
    step: integer('step'),
    version: integer('version').notNull().default(1),
    /** 'en' | 'sc' | 'tc': the language of the last save, used for messages about this draft. */
    language: text('language').notNull().default('tc'),
    contactEmail: text('contact_email'),
    /** 8 digits. */
    contactMobile: text('contact_mobile'),
    /**
     * The contacts confirmed by a one-time code (purpose 'contact'), normalised as `contactEmail` /
     * `contactMobile`: `{ email?: { value, at }, mobile?: { value, at } }`. One counts as verified only
     * while its value still equals the current answer (api/modules/applications/drafts.service.ts `verifiedContactsOf`).
     */
    verifiedContacts: jsonb('verified_contacts').$type<StoredVerifiedContacts>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }).notNull(),
    /** Set when the application is submitted ; a submitted draft can no longer be saved. */
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
  },
  (table) => [index('drafts_valid_until_idx').on(table.validUntil)],
);

/**
 * A bearer token that opens one draft: issued when the draft is created and each time it is resumed
 * with a one-time code. Only its SHA-256 is kept. It works while its draft is valid (the draft's
 * `validUntil`) and goes with the draft when that is purged.
 */
export const draftTokens = pgTable(
  'draft_tokens',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique('draft_tokens_token_hash_uq'),
    draftId: integer('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    /** 'create' | 'resume' */
    issuedFor: text('issued_for').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('draft_tokens_draft_idx').on(table.draftId)],
);

/**
 * A file uploaded for a draft (the Upload Documents step): one per document type of the form
 * (`documentType` is a RequiredDocument id of the catalogue, 'layoutPlans' ...); uploading another file
 * for a type replaces it. The bytes live in the document storage (api/adapters/storage.ts) under
 * `storageKey`, a name the server made; `originalName` is only shown, never used as a path. Deleted with
 * the draft (the purge removes the stored files too).
 */
export const draftDocuments = pgTable(
  'draft_documents',
  {
    id: serial('id').primaryKey(),
    draftId: integer('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    documentType: text('document_type').notNull(),
    storageKey: text('storage_key').notNull().unique('draft_documents_storage_key_uq'),
    originalName: text('original_name').notNull(),
    bytes: integer('bytes').notNull(),
    /** Hex SHA-256 of the file as stored. */
    sha256: text('sha256').notNull(),
    pageCount: integer('page_count').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('draft_documents_draft_type_uq').on(table.draftId, table.documentType)],
);

/**
 * One signing of a draft (iAM Smart or e-Cert). Signing starts by freezing what is signed: the application
 * PDF rendered at that moment (stored under `pdfStorageKey`) and the documents then uploaded; `digest` is
 * the SHA-256 of the manifest of their hashes (api/modules/applications/application-signing.ts), `answersSha256` the hash of the
 * answers it was made from. A submission needs a signed request whose digest is still the current one.
 * `status`: 'pending' | 'signed' | 'failed' | 'expired' | 'cancelled'; `code` the service's code
 * (D70004, D70005 ...) or the e-Cert rejection reason.
 */
export const signingRequests = pgTable(
  'signing_requests',
  {
    id: serial('id').primaryKey(),
    draftId: integer('draft_id')
      .notNull()
      .references(() => drafts.id, { onDelete: 'cascade' }),
    /** 'iamsmart' | 'ecert' */
    method: text('method').notNull(),
    /** Our id of the request, given to the browser (random, 32 hex). */
    requestId: text('request_id').notNull().unique('signing_requests_request_id_uq'),
    /** The iAM Smart transaction id (null for e-Cert). */
    externalId: text('external_id'),
    identificationCode: text('identification_code'),
    digest: text('digest').notNull(),
    answersSha256: text('answers_sha256').notNull(),
    pdfStorageKey: text('pdf_storage_key').notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    /** The language the application PDF was rendered in ('en' | 'tc' | 'sc'); null for older rows. */
    language: text('language'),
    /** The documents signed: [{ id, documentType, sha256 }] in manifest order. */
    documents: jsonb('documents').notNull(),
    status: text('status').notNull(),
    code: text('code'),
    /** The signer as the service or the certificate tells (name, certificate serial ...). */
    signer: jsonb('signer'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [index('signing_requests_draft_idx').on(table.draftId)],
);

/**
 * A submitted application: exactly one per draft (the unique draft id makes parallel submits collapse into
 * one). `idempotencyKey` is the key of the request that made it; the same key gets the same answer again.
 * `applicationId` is the "Find my case" application it became. Files can be downloaded until
 * `downloadUntil` (7 days after submission).
 */
export const submissions = pgTable('submissions', {
  id: serial('id').primaryKey(),
  draftId: integer('draft_id')
    .notNull()
    .unique('submissions_draft_uq')
    .references(() => drafts.id, { onDelete: 'restrict' }),
  applicationId: integer('application_id')
    .notNull()
    .references(() => applications.id, { onDelete: 'cascade' }),
  idempotencyKey: text('idempotency_key').notNull(),
  signingRequestId: integer('signing_request_id')
    .notNull()
    .references(() => signingRequests.id, { onDelete: 'restrict' }),
  submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
  downloadUntil: timestamp('download_until', { withTimezone: true }).notNull(),
});

export type DraftRow = typeof drafts.$inferSelect;
export type DraftDocumentRow = typeof draftDocuments.$inferSelect;
export type SigningRequestRow = typeof signingRequests.$inferSelect;
export type SubmissionRow = typeof submissions.$inferSelect;
