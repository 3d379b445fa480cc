import { eq } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { caseAssignments, staffAccounts } from '../../drizzle/schema-staff';
import { seedTestCase } from './seed-case';

/**
 * The case of officer-inbox.spec.ts (applicant 211): a Letter of Requirements out, assigned to the inbox
 * test's officer, who reads Traditional Chinese (the digest email comes in it).
 */
export const INBOX_CASE = { n: 211, status: 'LOR_ISSUED' } as const;

export async function seedInboxCase(db: Db, username: string): Promise<void> {
  const [officer] = await db
    .update(staffAccounts)
    .set({ language: 'tc' })
    .where(eq(staffAccounts.username, username))
    .returning({ id: staffAccounts.id });
  if (!officer) return;
  const id = await seedTestCase(db, INBOX_CASE.n, { status: INBOX_CASE.status, date: new Date() });
  if (id === undefined) return;
  await db
    .insert(caseAssignments)
    .values({ applicationId: id, staffId: officer.id, assignedAt: new Date(), assignedBy: officer.id })
    .onConflictDoNothing();
}
