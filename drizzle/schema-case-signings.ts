import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { applications, caseActions, sessions } from './schema-core';

/**
 * Signings of a follow-up on a case (Submit Supporting Document; docs/decisions/019-case-versions.md): one
 * row per iAM Smart or e-Cert request over the digest of the follow-up's manifest (its answers as parsed
 * and the SHA-256 of its files, api/modules/signing/signing-manifest.ts `followUpManifestText`). The follow-up
 * names the signing by `requestId`; when it is made, `actionId` records the follow-up that rests on it (a
 * signing serves one follow-up only).
 */
export const caseSignings = pgTable(
  'case_signings',
  {
    id: serial('id').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The session that started it (applicant, AP or RSE); null once that session is gone. */
    sessionId: integer('session_id').references(() => sessions.id, { onDelete: 'set null' }),
    /** The follow-up's key ('submitDocument'). */
    followUp: text('follow_up').notNull(),
    /** 'iamsmart' | 'ecert' */
    method: text('method').notNull(),
    requestId: text('request_id').notNull().unique('case_signings_request_uq'),
    externalId: text('external_id'),
    identificationCode: text('identification_code'),
    digest: text('digest').notNull(),
    /** The manifest text whose SHA-256 is `digest`. */
    manifest: text('manifest').notNull(),
    /** 'pending' | 'signed' | 'failed' | 'expired' | 'cancelled' */
    status: text('status').notNull(),
    code: text('code'),
    signer: jsonb('signer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The follow-up made with this signature (set in its transaction). */
    actionId: integer('action_id').references(() => caseActions.id, { onDelete: 'set null' }),
  },
  (table) => [index('case_signings_application_idx').on(table.applicationId)],
);

export type CaseSigningRow = typeof caseSignings.$inferSelect;
