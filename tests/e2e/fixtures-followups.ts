import type { Db } from '../../drizzle/db';
import { eq } from 'drizzle-orm';
import { applications, caseVersions, informationRequests, staffAccounts } from '../../drizzle/schema';
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
  // Submit Supporting Document and the revised layout plan (issue 11, part 2).
  documentsEn: { n: 54, form: 'a2' },
  layoutPlanTc: { n: 55, form: 'a2' },
  requestSc: { n: 56, form: 'a2' },
  // One case per test that logs in, so that the one-time code limits never couple two specs.
  wrongKindEn: { n: 121, form: 'a2' },
  wrongKindTc: { n: 122, form: 'a2' },
  reloadUpdateTc: { n: 123, form: 'a2' },
  sessionEndedEn: { n: 124, form: 'a2' },
  // Correcting an answer after the error summary, typed key by key (correct-after-error.spec.ts).
  correctUpdateTc: { n: 151, form: 'a2' },
  correctDocumentEn: { n: 152, form: 'a2' },
  correctAppointmentSc: { n: 153, form: 'a2' },
} as const;

/**
 * The department's open request for further information on the case of `requestSc` (the console's
 * "request further information", issue 17): its layout plans, by a staff account of the console fixtures.
 */
export async function seedFollowUpRequests(db: Db): Promise<void> {
  const [officer] = await db.select({ id: staffAccounts.id }).from(staffAccounts).limit(1);
  const [app] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(eq(applications.applicationNo, testApplicant(FOLLOW_UP_APPLICANTS.requestSc.n).applicationNo));
  if (!officer || !app) throw new Error('no staff account or case for the information request');
  await db.insert(informationRequests).values({
    applicationId: app.id,
    staffId: officer.id,
    documentTypes: ['layoutPlans'],
    note: 'Please send the layout plans with the fire exits marked.',
    replyBy: '2026-12-31',
    createdAt: new Date('2026-10-05T09:00:00+08:00'),
  });
}

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
