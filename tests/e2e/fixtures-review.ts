import { eq } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { applicationHistory, applications, caseActions, caseDocuments } from '../../drizzle/schema';
import { caseAssignments, staffAccounts } from '../../drizzle/schema-staff';
import { CONSOLE_STAFF } from './fixtures-console';
import { testApplicant } from './fixtures';
import { seedTestCase } from './seed-case';

/**
 * The cases of document-review.spec.ts (applicants 241–242, docs/decisions/043-document-review.md): an
 * open case (Letter of Requirements issued) assigned to the reviewing officer, whose applicant submitted a
 * location plan with Submit Supporting Document; one case in Traditional Chinese, one in English, each with
 * its own officer.
 */
export const REVIEW_CASES = {
  tc: { n: 241, language: 'tc', officer: 'review' },
  en: { n: 242, language: 'en', officer: 'reviewTc' },
} as const;
export const REVIEW_FILE = 'location-plan.pdf';

export async function seedReviewCases(db: Db): Promise<void> {
  for (const { n, language, officer: key } of Object.values(REVIEW_CASES)) {
    const [officer] = await db
      .select({ id: staffAccounts.id })
      .from(staffAccounts)
      .where(eq(staffAccounts.username, CONSOLE_STAFF[key].username));
    if (!officer) continue;
    const id = await seedTestCase(db, n, {
      status: 'LOR_ISSUED',
      date: new Date('2026-11-02T09:00:00+08:00'),
    });
    if (id === undefined) continue;
    await db.update(applications).set({ language }).where(eq(applications.id, id));
    await db
      .insert(caseAssignments)
      .values({ applicationId: id, staffId: officer.id, assignedAt: new Date(), assignedBy: officer.id })
      .onConflictDoNothing();
    const reference = `SD-${testApplicant(n).applicationNo}-1`;
    const at = new Date('2026-11-10T10:00:00+08:00');
    await db.insert(caseActions).values({
      applicationId: id,
      formKey: 'submitDocument',
      reference,
      idempotencyKey: `e2e-review-${n}`,
      answers: { documentType: 'locationPlan' },
      statusBefore: 'LOR_ISSUED',
      statusAfter: 'LOR_ISSUED',
      actor: 'applicant',
      language,
      createdAt: at,
    });
    const [row] = await db
      .insert(applicationHistory)
      .values({
        applicationId: id,
        submissionDate: at,
        documentType: 'SUPPORTING_DOCUMENT',
        status: 'LOR_ISSUED',
        submittedBy: 'APPLICANT',
        date: at,
        reference,
      })
      .returning({ id: applicationHistory.id });
    if (!row) continue;
    await db.insert(caseDocuments).values({
      applicationId: id,
      historyId: row.id,
      kind: 'locationPlan',
      storageKey: `e2e/review/${n}/location-plan`,
      fileName: REVIEW_FILE,
      bytes: 204_800,
      sha256: '0'.repeat(64),
      createdAt: at,
    });
  }
}
