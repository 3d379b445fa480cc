import { and, count, desc, eq, gt, inArray, isNotNull, isNull, lt, max, min, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import {
  applications,
  caseVersions,
  drafts,
  otpChallenges,
  rateEvents,
  submissions,
} from '../../../drizzle/schema';
import { contactOf } from '../../../machines/rules/contacts';
import { openAnswers } from '../shared';

/** The queries of one-time passwords. Each takes the database or the transaction it runs in. */

export type OtpPurpose =
  'login' | 'contact' | 'contactPerson' | 'resume' | 'appointment' | 'appointee' | 'holderContact';
export type RateKind = 'otp.send.application' | 'otp.send.address';

/**
 * Serialises, across processes, everything done for one application number (sends and verifies) until
 * the transaction ends. Both PGlite and Postgres 15 have `hashtextextended`.
 */
export async function lockKey(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** How many codes of this application number were burnt since `since`, and when the last one was. */
export async function burnsSince(
  tx: Db,
  applicationKeyHash: string,
  since: Date,
): Promise<{ burns: number; lastBurntAt: Date | null }> {
  const [row] = await tx
    .select({ burns: count(otpChallenges.burntAt), lastBurntAt: max(otpChallenges.burntAt) })
    .from(otpChallenges)
    .where(
      and(
        eq(otpChallenges.applicationKeyHash, applicationKeyHash),
        isNotNull(otpChallenges.burntAt),
        gt(otpChallenges.burntAt, since),
      ),
    );
  return { burns: row?.burns ?? 0, lastBurntAt: row?.lastBurntAt ?? null };
}

/** Events of one key and kind since `since`: how many, the oldest and the newest. */
export async function rateWindow(
  tx: Db,
  key: string,
  kind: RateKind,
  since: Date,
): Promise<{ events: number; oldest: Date | null; newest: Date | null }> {
  const [row] = await tx
    .select({ events: count(), oldest: min(rateEvents.at), newest: max(rateEvents.at) })
    .from(rateEvents)
    .where(and(eq(rateEvents.key, key), eq(rateEvents.kind, kind), gt(rateEvents.at, since)));
  return { events: row?.events ?? 0, oldest: row?.oldest ?? null, newest: row?.newest ?? null };
}

export async function addRateEvents(
  tx: Db,
  events: { key: string; kind: RateKind; at: Date }[],
): Promise<void> {
  await tx.insert(rateEvents).values(events);
}

/** Forgets the events of these keys older than `before` (outside every window). */
export async function pruneRateEvents(tx: Db, keys: string[], before: Date): Promise<void> {
  await tx.delete(rateEvents).where(and(inArray(rateEvents.key, keys), lt(rateEvents.at, before)));
}

export interface ApplicationContact {
  id: number;
  applicationNo: string;
  email: string | null;
  mobile: string | null;
  language: string;
  /** What `id` names: an application (the default) or a saved draft (purpose 'resume'). */
  subject?: 'application' | 'draft';
  /**
   * The applicant's email and mobile as the application gives them (its latest version), normalised, when
   * they are not the ones above: a code may go to either (docs/decisions/005-one-time-codes.md, "Which
   * contact").
   */
  given?: { email: string | null; mobile: string | null };
}

/** Who is on file for an application number: the applications table, or (resume) the drafts table. */
export type ContactLookup = (tx: Db, applicationNo: string) => Promise<ApplicationContact | undefined>;

/**
 * Who is on file for an application number: the contacts confirmed at its submission (or held for a case
 * entered otherwise), and the applicant's email and mobile as the application now gives them.
 */
export async function findApplicationContact(
  tx: Db,
  applicationNo: string,
): Promise<ApplicationContact | undefined> {
  const [row] = await tx
    .select({
      id: applications.id,
      applicationNo: applications.applicationNo,
      email: applications.email,
      mobile: applications.mobile,
      language: applications.language,
    })
    .from(applications)
    .where(eq(applications.applicationNo, applicationNo))
    .limit(1);
  if (!row) return undefined;
  const answers = await applicationAnswers(tx, row.id);
  if (!answers) return row;
  const given = contactOf(answers);
  return { ...row, given: { email: given.contactEmail, mobile: given.contactMobile } };
}

/**
 * The application's answers now: its latest version (docs/decisions/019-case-versions.md), or as submitted
 * online before any update; undefined for a case with neither (entered outside the portal).
 */
async function applicationAnswers(
  tx: Db,
  applicationId: number,
): Promise<Record<string, unknown> | undefined> {
  const [latest] = await tx
    .select({ answers: caseVersions.answers })
    .from(caseVersions)
    .where(eq(caseVersions.applicationId, applicationId))
    .orderBy(desc(caseVersions.version))
    .limit(1);
  if (latest) return openAnswers(latest.answers);
  const [submitted] = await tx
    .select({ answers: drafts.answers })
    .from(submissions)
    .innerJoin(drafts, eq(drafts.id, submissions.draftId))
    .where(eq(submissions.applicationId, applicationId))
    .limit(1);
  return openAnswers(submitted?.answers as Record<string, unknown> | undefined) ?? undefined;
}

/** A newer code replaces every live one of the same key and purpose. */
export async function supersedeLive(tx: Db, keyHash: string, purpose: OtpPurpose, now: Date): Promise<void> {
  await tx
    .update(otpChallenges)
    .set({ supersededAt: now })
    .where(
      and(
        eq(otpChallenges.keyHash, keyHash),
        eq(otpChallenges.purpose, purpose),
        isNull(otpChallenges.consumedAt),
        isNull(otpChallenges.burntAt),
        isNull(otpChallenges.supersededAt),
      ),
    );
}

export async function insertChallenge(
  tx: Db,
  row: {
    keyHash: string;
    applicationKeyHash: string;
    applicationId: number | null;
    draftId?: number | null;
    purpose: OtpPurpose;
    codeHash: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<number> {
  const [inserted] = await tx.insert(otpChallenges).values(row).returning({ id: otpChallenges.id });
  if (!inserted) throw new Error('otp challenge not inserted');
  return inserted.id;
}

export interface LiveChallenge {
  id: number;
  applicationId: number | null;
  draftId: number | null;
  codeHash: string;
}

/** When the newest code for this application number and purpose was made (any contact, whatever became of it). */
export async function newestChallengeAt(
  tx: Db,
  applicationKeyHash: string,
  purpose: OtpPurpose,
): Promise<Date | null> {
  const [row] = await tx
    .select({ at: max(otpChallenges.createdAt) })
    .from(otpChallenges)
    .where(and(eq(otpChallenges.applicationKeyHash, applicationKeyHash), eq(otpChallenges.purpose, purpose)));
  return row?.at ?? null;
}

/** The newest code of this key and purpose that is neither used, burnt, replaced nor expired. */
export async function findLiveChallenge(
  tx: Db,
  keyHash: string,
  purpose: OtpPurpose,
  now: Date,
): Promise<LiveChallenge | undefined> {
  const [row] = await tx
    .select({
      id: otpChallenges.id,
      applicationId: otpChallenges.applicationId,
      draftId: otpChallenges.draftId,
      codeHash: otpChallenges.codeHash,
    })
    .from(otpChallenges)
    .where(
      and(
        eq(otpChallenges.keyHash, keyHash),
        eq(otpChallenges.purpose, purpose),
        isNull(otpChallenges.consumedAt),
        isNull(otpChallenges.burntAt),
        isNull(otpChallenges.supersededAt),
        gt(otpChallenges.expiresAt, now),
      ),
    )
    .orderBy(desc(otpChallenges.createdAt), desc(otpChallenges.id))
    .limit(1);
  return row;
}

const stillUsable = (id: number) =>
  and(
    eq(otpChallenges.id, id),
    isNull(otpChallenges.consumedAt),
    isNull(otpChallenges.burntAt),
    isNull(otpChallenges.supersededAt),
  );

/** Uses the code: true for exactly one caller, however many verify it at once. */
export async function consumeChallenge(tx: Db, id: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(otpChallenges)
    .set({ consumedAt: now })
    .where(stillUsable(id))
    .returning({ id: otpChallenges.id });
  return rows.length === 1;
}

/**
 * Counts a wrong try; the `maxAttempts`-th burns the code. Answers the tries made so far, or undefined
 * when the code was used, burnt or replaced meanwhile.
 */
export async function recordWrongAttempt(
  tx: Db,
  id: number,
  now: Date,
  maxAttempts: number,
): Promise<number | undefined> {
  const [row] = await tx
    .update(otpChallenges)
    .set({
      attempts: sql`${otpChallenges.attempts} + 1`,
      burntAt: sql`case when ${otpChallenges.attempts} + 1 >= ${maxAttempts} then ${now.toISOString()}::timestamptz end`,
    })
    .where(stillUsable(id))
    .returning({ attempts: otpChallenges.attempts });
  return row?.attempts;
}
