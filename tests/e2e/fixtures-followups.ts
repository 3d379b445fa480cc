import type { Db } from '../../drizzle/db';
import { caseVersions } from '../../drizzle/schema';
import { formByKey } from '../../machines/forms';
import { testApplicant } from './fixtures';
import { seedTestCase } from './seed-case';

/**
 * The cases of the browser tests of issue 11 (applicants 51–60): each with the application's information
 * as submitted (version 1, the form's example answers), so the update forms have something to prefill.
 */
export const FOLLOW_UP_APPLICANTS = {
  usiSchoolEn: { n: 51, form: 'a2' },
  usiCentreTc: { n: 52, form: 'cccaiC2' },
  usiSchoolSc: { n: 53, form: 'a2' },
} as const;

export async function seedFollowUpCases(db: Db): Promise<void> {
  for (const { n, form: key } of Object.values(FOLLOW_UP_APPLICANTS)) {
    const form = formByKey(key);
    if (!form) throw new Error(`form ${key} missing`);
    const a = testApplicant(n);
    const date = new Date('2026-10-01T09:00:00+08:00');
    const applicationId = await seedTestCase(db, n, {
      status: 'ACKNOWLEDGED',
      formCode: form.code,
      applicationType: form.applicationType,
      date,
    });
    if (applicationId === undefined) throw new Error(`case ${n} not seeded`);
    const row = { id: applicationId };
    await db.insert(caseVersions).values({
      applicationId: row.id,
      version: 1,
      answers: { ...form.example, applicantEmail: a.email },
      reference: a.applicationNo,
      submittedBy: 'APPLICANT',
      createdAt: date,
    });
  }
}
