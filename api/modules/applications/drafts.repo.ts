import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { draftDocuments, draftTokens, drafts, signingRequests } from '../../../drizzle/schema';
import type { ContactChannel, DraftAnswers, StoredVerifiedContacts } from '../../../machines/rules/drafts';
import type { ApplicationContact } from '../auth';
import { openAnswers, sealAnswers } from '../shared';

/**
 * The queries of drafts. Each takes the database or the transaction it runs in. Answers are sealed as they
 * are written and opened as they are read (docs/decisions/035-hkic-at-rest.md).
 */

/** A draft without its answers: enough to authorise and check a request. */
export interface DraftHead {
  id: number;
  applicationNo: string;
  formKey: string;
  version: number;
  updatedAt: Date;
  validUntil: Date;
  submittedAt: Date | null;
}

export interface DraftRecord extends DraftHead {
  answers: DraftAnswers;
  step: number | null;
  verifiedContacts: StoredVerifiedContacts;
}

/** The fields a save writes (besides the version and the times). */
export interface DraftContent {
  answers: DraftAnswers;
  step: number | null;
  language: string;
  contactEmail: string | null;
  contactMobile: string | null;
}

/**
 * Inserts a draft with the next application number, `<formCode>-<year>-<sequence>` (the sequence padded
 * to 6 digits, longer when it outgrows them), in one statement.
 */
export async function insertDraft(
  tx: Db,
  row: DraftContent & { formKey: string; formCode: string; year: number; now: Date; validUntil: Date },
): Promise<{ id: number; applicationNo: string }> {
  const prefix = `${row.formCode}-${row.year}-`;
  const [inserted] = await tx
    .insert(drafts)
    .values({
      applicationNo: sql`(select ${prefix} || lpad(n::text, greatest(6, length(n::text)), '0') from (select nextval('application_no_seq') as n) as next)`,
      formKey: row.formKey,
      formCode: row.formCode,
      answers: sealAnswers(row.answers),
      step: row.step,
      version: 1,
      language: row.language,
      contactEmail: row.contactEmail,
      contactMobile: row.contactMobile,
      createdAt: row.now,
      updatedAt: row.now,
      validUntil: row.validUntil,
    })
    .returning({ id: drafts.id, applicationNo: drafts.applicationNo });
  if (!inserted) throw new Error('draft not inserted');
  return inserted;
}

export async function insertDraftToken(
  tx: Db,
  row: { tokenHash: string; draftId: number; issuedFor: 'create' | 'resume'; createdAt: Date },
): Promise<void> {
  await tx.insert(draftTokens).values(row);
}

const headColumns = {
  id: drafts.id,
  applicationNo: drafts.applicationNo,
  formKey: drafts.formKey,
  version: drafts.version,
  updatedAt: drafts.updatedAt,
  validUntil: drafts.validUntil,
  submittedAt: drafts.submittedAt,
};

/** The draft a token opens (expired or not), or undefined for a token never issued or purged. */
export async function draftOfToken(db: Db, tokenHash: string): Promise<DraftHead | undefined> {
  const [row] = await db
    .select(headColumns)
    .from(draftTokens)
    .innerJoin(drafts, eq(drafts.id, draftTokens.draftId))
    .where(eq(draftTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function readDraft(db: Db, id: number): Promise<DraftRecord | undefined> {
  const [row] = await db
    .select({
      ...headColumns,
      answers: drafts.answers,
      step: drafts.step,
      verifiedContacts: drafts.verifiedContacts,
    })
    .from(drafts)
    .where(eq(drafts.id, id))
    .limit(1);
  return row ? { ...row, answers: openAnswers(row.answers as DraftAnswers) } : undefined;
}

export interface SaveIfCurrent extends DraftContent {
  id: number;
  /** The token the save came with: it must still open the draft (checked in the same statement). */
  tokenHash: string;
  version: number;
  now: Date;
  validUntil: Date;
}

/**
 * Replaces the draft's content if, and only if, it is still at `version`, valid at `now`, not submitted,
 * and the token still opens it: one conditional UPDATE, so of any number of saves racing from the same
 * version exactly one wins. Prepared once (at the first save), so a save does not rebuild its SQL. The function
 * answers the new version and validity, or undefined when nothing was written.
 */
export function prepareSaveIfCurrent(
  db: Db,
): (save: SaveIfCurrent) => Promise<{ version: number; validUntil: Date } | undefined> {
  const p = (name: keyof SaveIfCurrent | 'answersJson') => sql.placeholder(name);
  const build = () =>
    db
      .update(drafts)
      .set({
        answers: sql`${p('answersJson')}::jsonb`,
        step: sql`${p('step')}`,
        language: sql`${p('language')}`,
        contactEmail: sql`${p('contactEmail')}`,
        contactMobile: sql`${p('contactMobile')}`,
        version: sql`${drafts.version} + 1`,
        updatedAt: sql`${p('now')}::timestamptz`,
        validUntil: sql`${p('validUntil')}::timestamptz`,
      })
      .where(
        and(
          sql`${drafts.id} = ${p('id')}`,
          sql`${drafts.version} = ${p('version')}`,
          sql`${drafts.validUntil} > ${p('now')}::timestamptz`,
          isNull(drafts.submittedAt),
          sql`exists (select 1 from ${draftTokens} where ${draftTokens.tokenHash} = ${p('tokenHash')} and ${draftTokens.draftId} = ${drafts.id})`,
        ),
      )
      .returning({ version: drafts.version, validUntil: drafts.validUntil })
      .prepare('drafts_save_if_current');
  // Built on the first save, not when the app is made.
  let statement: ReturnType<typeof build> | undefined;
  return async (save) => {
    statement ??= build();
    const [row] = await statement.execute({
      answersJson: JSON.stringify(sealAnswers(save.answers)),
      step: save.step,
      language: save.language,
      contactEmail: save.contactEmail,
      contactMobile: save.contactMobile,
      now: save.now.toISOString(),
      validUntil: save.validUntil.toISOString(),
      id: save.id,
      version: save.version,
      tokenHash: save.tokenHash,
    });
    return row;
  };
}

/**
 * Records `value` as the draft's confirmed contact of `channel` (replacing an earlier one of that channel)
 * in one statement; answers the draft's answers and confirmed contacts as they are now, or undefined when
 * the draft is gone.
 */
export async function recordVerifiedContact(
  tx: Db,
  row: { id: number; channel: ContactChannel; value: string; at: Date },
): Promise<{ answers: DraftAnswers; verifiedContacts: StoredVerifiedContacts } | undefined> {
  const entry = JSON.stringify({ [row.channel]: { value: row.value, at: row.at.toISOString() } });
  const [updated] = await tx
    .update(drafts)
    .set({ verifiedContacts: sql`${drafts.verifiedContacts} || ${entry}::jsonb` })
    .where(eq(drafts.id, row.id))
    .returning({ answers: drafts.answers, verifiedContacts: drafts.verifiedContacts });
  return updated
    ? { answers: openAnswers(updated.answers as DraftAnswers), verifiedContacts: updated.verifiedContacts }
    : undefined;
}

/**
 * The contact on file of a draft not yet submitted (expired or not, so that asking for a code does not
 * tell whether it expired): the one-time password service's lookup for purpose 'resume'.
 */
export async function findDraftContact(
  tx: Db,
  applicationNo: string,
): Promise<ApplicationContact | undefined> {
  const [row] = await tx
    .select({
      id: drafts.id,
      applicationNo: drafts.applicationNo,
      email: drafts.contactEmail,
      mobile: drafts.contactMobile,
      language: drafts.language,
    })
    .from(drafts)
    .where(and(eq(drafts.applicationNo, applicationNo), isNull(drafts.submittedAt)))
    .limit(1);
  return row ? { ...row, subject: 'draft' } : undefined;
}

/**
 * Deletes the drafts whose validity ended at or before `now` and that were never submitted; their tokens,
 * one-time codes, documents and signing requests go with them (ON DELETE CASCADE). Answers how many were
 * deleted and the storage keys of their files (uploads and frozen application PDFs), to remove from the
 * document storage after the commit.
 */
export async function deleteExpiredDrafts(
  db: Db,
  now: Date,
): Promise<{ count: number; storageKeys: string[] }> {
  return db.transaction(async (tx) => {
    const expired = and(lte(drafts.validUntil, now), isNull(drafts.submittedAt));
    const uploads = await tx
      .select({ key: draftDocuments.storageKey })
      .from(draftDocuments)
      .innerJoin(drafts, eq(drafts.id, draftDocuments.draftId))
      .where(expired);
    // A signing request froze its application PDF and the documents then uploaded (one may since have
    // been replaced or removed, and be named only here).
    const frozen = await tx
      .select({ key: signingRequests.pdfStorageKey, documents: signingRequests.documents })
      .from(signingRequests)
      .innerJoin(drafts, eq(drafts.id, signingRequests.draftId))
      .where(expired);
    const frozenDocuments = frozen.flatMap((r) =>
      (r.documents as { storageKey?: unknown }[]).flatMap((d) =>
        typeof d.storageKey === 'string' ? [d.storageKey] : [],
      ),
    );
    const deleted = await tx.delete(drafts).where(expired).returning({ id: drafts.id });
    const keys = new Set([...uploads.map((r) => r.key), ...frozen.map((r) => r.key), ...frozenDocuments]);
    return { count: deleted.length, storageKeys: [...keys] };
  });
}
