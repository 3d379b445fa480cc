import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import {
  caseAssignments,
  caseMessages,
  informationRequests,
  staffAccounts,
} from '../../../drizzle/schema-staff';

/**
 * The case's officer, information requests and messages, as the applicant reads and answers them and the
 * console writes them (docs/console.md). Each takes the database or the transaction.
 */

export async function assignmentOf(tx: Db, applicationId: number) {
  const [row] = await tx
    .select()
    .from(caseAssignments)
    .where(eq(caseAssignments.applicationId, applicationId));
  return row;
}

export async function staffById(tx: Db, id: number) {
  const [row] = await tx.select().from(staffAccounts).where(eq(staffAccounts.id, id));
  return row;
}

export async function requestsOf(tx: Db, applicationId: number) {
  return tx
    .select()
    .from(informationRequests)
    .where(eq(informationRequests.applicationId, applicationId))
    .orderBy(desc(informationRequests.createdAt));
}

export async function messagesOf(tx: Db, applicationId: number) {
  return tx
    .select()
    .from(caseMessages)
    .where(eq(caseMessages.applicationId, applicationId))
    .orderBy(asc(caseMessages.createdAt), asc(caseMessages.id));
}

export async function insertMessage(tx: Db, row: typeof caseMessages.$inferInsert) {
  await tx.insert(caseMessages).values(row);
}

/**
 * Closes an information request when documents were submitted for it (the Submit Supporting Document
 * flow calls this in its transaction, with the follow-up's case_actions id). Answers whether it was open.
 */
export async function answerInformationRequest(
  tx: Db,
  applicationId: number,
  requestId: number,
  actionId: number,
  at: Date = new Date(),
): Promise<boolean> {
  const rows = await tx
    .update(informationRequests)
    .set({ answeredAt: at, answeredBy: actionId })
    .where(
      and(
        eq(informationRequests.id, requestId),
        eq(informationRequests.applicationId, applicationId),
        isNull(informationRequests.answeredAt),
        isNull(informationRequests.withdrawnAt),
      ),
    )
    .returning({ id: informationRequests.id });
  return rows.length > 0;
}
