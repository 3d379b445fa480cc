import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import {
  applicationHistory,
  applications,
  auditEvents,
  caseActions,
  caseDocuments,
  caseSignings,
  drafts,
  signingRequests,
  submissions,
} from '../../../drizzle/schema';
import {
  caseAssignments,
  informationRequests,
  issuedDocuments,
  staffAccounts,
} from '../../../drizzle/schema-staff';
import { OPEN_STATUSES } from '../../../machines/rules/case-lifecycle';
import { openAnswers } from '../shared';

/** The queries of the console (api/modules/console/console.service.ts). Each takes the database or the transaction. */

/** When the case was first submitted: its oldest history row. */
const firstSubmitted =
  sql<Date | null>`(select min(${applicationHistory.submissionDate}) from ${applicationHistory}
    where ${applicationHistory.applicationId} = ${applications.id})`.mapWith((v: unknown) =>
    v === null || v === undefined ? null : new Date(v as string),
  );

/** When the case came in: its first submission, else when its row was made. */
const cameIn = sql`coalesce(${firstSubmitted}, ${applications.createdAt})`;

/** A case that is not open any more (certificate issued, closed, withdrawn, rejected): true sorts last. */
export const finishedCase = sql<boolean>`(${applications.status} not in (${sql.join(
  OPEN_STATUSES.map((s) => sql`${s}`),
  sql`, `,
)}))`;

/**
 * A page of the queue's cases with their officer: the open ones first, each part in the order of the
 * contact details' due date (2 working days after the case came in, so the order of coming in), then of
 * the application number (unique: the order is the same on every page); and how many there are.
 */
export async function queueRows(
  tx: Db,
  where: SQL | undefined,
  page: { limit: number; offset: number } = { limit: 1, offset: 0 },
) {
  const [rows, [counted]] = await Promise.all([
    tx
      .select({
        id: applications.id,
        applicationNo: applications.applicationNo,
        formCode: applications.formCode,
        status: applications.status,
        nameEn: applications.applicantNameEn,
        nameZh: applications.applicantNameZh,
        premisesAddressEn: applications.premisesAddressEn,
        createdAt: applications.createdAt,
        submittedAt: firstSubmitted,
        staffId: caseAssignments.staffId,
        contactSentAt: caseAssignments.contactSentAt,
      })
      .from(applications)
      .leftJoin(caseAssignments, eq(caseAssignments.applicationId, applications.id))
      .where(where)
      .orderBy(asc(finishedCase), asc(cameIn), asc(applications.applicationNo))
      .limit(page.limit)
      .offset(page.offset),
    tx
      .select({ n: count() })
      .from(applications)
      .leftJoin(caseAssignments, eq(caseAssignments.applicationId, applications.id))
      .where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

export async function applicationByNo(tx: Db, applicationNo: string, lock = false) {
  const query = tx.select().from(applications).where(eq(applications.applicationNo, applicationNo));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function setAssignment(tx: Db, row: typeof caseAssignments.$inferInsert) {
  await tx
    .insert(caseAssignments)
    .values(row)
    .onConflictDoUpdate({
      target: caseAssignments.applicationId,
      set: { staffId: row.staffId, assignedAt: row.assignedAt, assignedBy: row.assignedBy },
    });
}

export async function markContactSent(tx: Db, applicationId: number, at: Date) {
  await tx
    .update(caseAssignments)
    .set({ contactSentAt: at })
    .where(eq(caseAssignments.applicationId, applicationId));
}

export async function staffList(tx: Db) {
  return tx.select().from(staffAccounts).where(eq(staffAccounts.active, true)).orderBy(asc(staffAccounts.id));
}

/** Ids of cases with an information request past its reply-by date (`today`, ISO) and unanswered. */
export async function overdueRequestCases(tx: Db, today: string): Promise<Set<number>> {
  const rows = await tx
    .select({ id: informationRequests.applicationId })
    .from(informationRequests)
    .where(
      and(
        isNull(informationRequests.answeredAt),
        isNull(informationRequests.withdrawnAt),
        lt(informationRequests.replyBy, today),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

export async function auditOf(tx: Db, where: SQL | undefined, limit = 200) {
  return tx
    .select({ event: auditEvents, applicationNo: applications.applicationNo })
    .from(auditEvents)
    .leftJoin(applications, eq(applications.id, auditEvents.applicationId))
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit);
}

/** The admin's audit search: by case number (part of it), actor reference, event, from a date. */
export function auditFilter(q: { applicationNo?: string; actorRef?: string; event?: string; from?: Date }) {
  const parts: SQL[] = [];
  if (q.applicationNo)
    parts.push(ilike(applications.applicationNo, `%${q.applicationNo.replace(/[%_\\]/g, '')}%`));
  if (q.actorRef) parts.push(eq(auditEvents.actorRef, q.actorRef));
  if (q.event) parts.push(eq(auditEvents.event, q.event));
  if (q.from) parts.push(gte(auditEvents.at, q.from));
  return parts.length ? and(...parts) : undefined;
}

export async function submissionOf(tx: Db, applicationId: number) {
  const [row] = await tx
    .select({
      answers: drafts.answers,
      formKey: drafts.formKey,
      submittedAt: submissions.submittedAt,
      method: signingRequests.method,
      signer: signingRequests.signer,
      completedAt: signingRequests.completedAt,
    })
    .from(submissions)
    .innerJoin(drafts, eq(drafts.id, submissions.draftId))
    .innerJoin(signingRequests, eq(signingRequests.id, submissions.signingRequestId))
    .where(eq(submissions.applicationId, applicationId));
  // The officer sees the application as submitted, HKIC included (docs/decisions/035-hkic-at-rest.md).
  return row ? { ...row, answers: openAnswers(row.answers) } : row;
}

/** The signatures the case's follow-ups rest on (Submit Supporting Document ...), oldest first. */
export async function followUpSignaturesOf(tx: Db, applicationId: number) {
  return tx
    .select({
      reference: caseActions.reference,
      method: caseSignings.method,
      signer: caseSignings.signer,
      submittedAt: caseActions.createdAt,
    })
    .from(caseSignings)
    .innerJoin(caseActions, eq(caseActions.id, caseSignings.actionId))
    .where(and(eq(caseSignings.applicationId, applicationId), eq(caseSignings.status, 'signed')))
    .orderBy(asc(caseActions.id));
}

export async function insertDocument(tx: Db, row: typeof caseDocuments.$inferInsert) {
  const [made] = await tx.insert(caseDocuments).values(row).returning({ id: caseDocuments.id });
  return made?.id ?? null;
}

export async function insertIssued(tx: Db, row: typeof issuedDocuments.$inferInsert) {
  await tx.insert(issuedDocuments).values(row);
}

export async function lastIssued(tx: Db, applicationId: number, event: string) {
  const [row] = await tx
    .select()
    .from(issuedDocuments)
    .where(and(eq(issuedDocuments.applicationId, applicationId), eq(issuedDocuments.event, event)))
    .orderBy(desc(issuedDocuments.id))
    .limit(1);
  return row;
}

/** An open request's new reply-by date, the earlier one kept; false when the request is not open. */
export async function extendRequest(tx: Db, applicationId: number, requestId: number, replyBy: string) {
  const made = await tx
    .update(informationRequests)
    .set({
      replyBy,
      earlierReplyBy: sql`${informationRequests.earlierReplyBy} || jsonb_build_array(${informationRequests.replyBy})`,
    })
    .where(openRequest(applicationId, requestId))
    .returning({ id: informationRequests.id });
  return made.length > 0;
}

/** Withdraws an open request; false when it is not open. */
export async function withdrawRequest(tx: Db, applicationId: number, requestId: number, at: Date) {
  const made = await tx
    .update(informationRequests)
    .set({ withdrawnAt: at })
    .where(openRequest(applicationId, requestId))
    .returning({ id: informationRequests.id });
  return made.length > 0;
}

const openRequest = (applicationId: number, requestId: number) =>
  and(
    eq(informationRequests.id, requestId),
    eq(informationRequests.applicationId, applicationId),
    isNull(informationRequests.answeredAt),
    isNull(informationRequests.withdrawnAt),
  );

export async function insertRequest(tx: Db, row: typeof informationRequests.$inferInsert) {
  const [made] = await tx.insert(informationRequests).values(row).returning({ id: informationRequests.id });
  return made?.id;
}

/**
 * The follow-ups of the case by its parties (the applicant, the appointed AP or RSE), oldest first: their
 * answers as stored, what they wrote included (api/modules/console/applicant-words.ts).
 */
export async function partyFollowUpsOf(tx: Db, applicationId: number) {
  return tx
    .select({
      reference: caseActions.reference,
      formKey: caseActions.formKey,
      answers: caseActions.answers,
      actor: caseActions.actor,
      language: caseActions.language,
      createdAt: caseActions.createdAt,
    })
    .from(caseActions)
    .where(
      and(
        eq(caseActions.applicationId, applicationId),
        inArray(caseActions.actor, ['applicant', 'ap', 'rse']),
      ),
    )
    .orderBy(asc(caseActions.id));
}
