import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import {
  applicationHistory,
  applications,
  caseActions,
  caseDocuments,
  drafts,
  rateEvents,
  submissions,
} from '../../../drizzle/schema';
import { appendAudit, openAnswers, sealAnswers, type AuditRow } from '../shared';

/**
 * The queries of cases (api/modules/cases/cases.service.ts). Each takes the database or the transaction it
 * runs in. Answers are sealed as they are written and opened as they are read (docs/decisions/035-hkic-at-rest.md).
 */

export async function findApplication(tx: Db, applicationId: number) {
  const [row] = await tx.select().from(applications).where(eq(applications.id, applicationId));
  return row;
}

/** The application row, locked until the transaction ends: follow-ups of one case wait for each other. */
export async function lockApplication(tx: Db, applicationId: number) {
  const [row] = await tx.select().from(applications).where(eq(applications.id, applicationId)).for('update');
  return row;
}

export async function lockApplicationByNo(tx: Db, applicationNo: string) {
  const [row] = await tx
    .select()
    .from(applications)
    .where(eq(applications.applicationNo, applicationNo))
    .for('update');
  return row;
}

/** The answers of the application as submitted online (null for a case that was not submitted here). */
export async function submittedAnswers(tx: Db, applicationId: number) {
  const [row] = await tx
    .select({ answers: drafts.answers, submittedAt: submissions.submittedAt })
    .from(submissions)
    .innerJoin(drafts, eq(drafts.id, submissions.draftId))
    .where(eq(submissions.applicationId, applicationId));
  return row
    ? { answers: openAnswers(row.answers as Record<string, unknown>), submittedAt: row.submittedAt }
    : null;
}

export async function historyOf(tx: Db, applicationId: number) {
  return tx
    .select()
    .from(applicationHistory)
    .where(eq(applicationHistory.applicationId, applicationId))
    .orderBy(desc(applicationHistory.date), desc(applicationHistory.id));
}

/** The revision label of each revised layout plan of the case, by the follow-up's reference. */
export async function layoutPlanRevisions(tx: Db, applicationId: number): Promise<Map<string, string>> {
  const rows = await tx
    .select({ reference: caseActions.reference, answers: caseActions.answers })
    .from(caseActions)
    .where(and(eq(caseActions.applicationId, applicationId), eq(caseActions.formKey, 'submitDocument')));
  const revisions = new Map<string, string>();
  for (const row of rows) {
    const revision = (row.answers as Record<string, unknown> | null)?.revision;
    if (typeof revision === 'string') revisions.set(row.reference, revision);
  }
  return revisions;
}

export async function firstSubmission(tx: Db, applicationId: number): Promise<Date | null> {
  const [row] = await tx
    .select({ at: applicationHistory.submissionDate })
    .from(applicationHistory)
    .where(eq(applicationHistory.applicationId, applicationId))
    .orderBy(asc(applicationHistory.submissionDate))
    .limit(1);
  return row?.at ?? null;
}

export async function documentsOf(tx: Db, applicationId: number) {
  return tx
    .select()
    .from(caseDocuments)
    .where(eq(caseDocuments.applicationId, applicationId))
    .orderBy(asc(caseDocuments.id));
}

export async function documentOf(tx: Db, applicationId: number, documentId: number) {
  const [row] = await tx
    .select()
    .from(caseDocuments)
    .where(and(eq(caseDocuments.applicationId, applicationId), eq(caseDocuments.id, documentId)));
  return row;
}

export async function actionByKey(tx: Db, applicationId: number, idempotencyKey: string) {
  const [row] = await tx
    .select()
    .from(caseActions)
    .where(and(eq(caseActions.applicationId, applicationId), eq(caseActions.idempotencyKey, idempotencyKey)));
  return row ? { ...row, answers: openAnswers(row.answers) } : row;
}

export async function countActions(tx: Db, applicationId: number, formKey: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(caseActions)
    .where(and(eq(caseActions.applicationId, applicationId), eq(caseActions.formKey, formKey)));
  return row?.n ?? 0;
}

export async function insertAction(tx: Db, row: typeof caseActions.$inferInsert) {
  const [made] = await tx
    .insert(caseActions)
    .values({ ...row, answers: sealAnswers(row.answers) })
    .returning();
  if (!made) throw new Error('case action not recorded');
  return { ...made, answers: openAnswers(made.answers) };
}

export async function setStatus(tx: Db, applicationId: number, status: string, at: Date) {
  await tx.update(applications).set({ status, updatedAt: at }).where(eq(applications.id, applicationId));
}

/** The applicant's names on the case row, as the latest version of its information gives them. The verified
 * email and mobile (where one-time codes go) are not changed by an update. */
export async function setNames(tx: Db, applicationId: number, answers: Record<string, unknown>, at: Date) {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  await tx
    .update(applications)
    .set({
      applicantNameEn: text(answers.applicantNameEn),
      applicantNameZh: text(answers.applicantNameZh),
      updatedAt: at,
    })
    .where(eq(applications.id, applicationId));
}

export async function insertHistory(tx: Db, row: typeof applicationHistory.$inferInsert) {
  const [made] = await tx.insert(applicationHistory).values(row).returning({ id: applicationHistory.id });
  if (!made) throw new Error('history row not recorded');
  return made.id;
}

/** The case's audit event, in the caller's transaction (api/modules/shared/audit.ts). */
export async function insertAudit(tx: Db, row: AuditRow) {
  await appendAudit(tx, row);
}

/** Rate events of `key` since `since` (the follow-up limit), and one more recorded at `at`. */
export async function countRate(tx: Db, key: string, since: Date): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(rateEvents)
    .where(and(eq(rateEvents.key, key), eq(rateEvents.kind, 'case.action'), gt(rateEvents.at, since)));
  return row?.n ?? 0;
}

export async function addRate(tx: Db, key: string, at: Date) {
  await tx.insert(rateEvents).values({ key, kind: 'case.action', at });
}

/** Serialises the rate count of one key across processes until the transaction ends. */
export async function lockRate(tx: Db, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`rate|${key}`}, 0))`);
}
