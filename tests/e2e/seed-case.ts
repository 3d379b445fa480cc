import type { Db } from '../../drizzle/db';
import { applicationHistory, applications } from '../../drizzle/schema';
import { testApplicant } from './fixtures';

/**
 * One submitted application of the browser tests' own applicants (`testApplicant(n)`), in `status`, with
 * its submission's history row: the case every fixture module starts from. Undefined when the number was
 * seeded already.
 */
/** The test applicants seeded by this process (tests/e2e/serve.ts seeds one database). */
const seededHere = new Set<number>();

export async function seedTestCase(
  db: Db,
  n: number,
  options: {
    status: string;
    formCode?: string;
    applicationType?: string;
    /** When it was submitted (the history row's date). */
    date?: Date;
    premisesAddressEn?: string;
  },
): Promise<number | undefined> {
  // One test applicant, one fixture: two specs sharing an applicant couple through its one-time code limits.
  if (seededHere.has(n)) throw new Error(`test applicant ${n} is seeded by two fixtures: give one another number`);
  seededHere.add(n);
  const a = testApplicant(n);
  const [row] = await db
    .insert(applications)
    .values({
      applicationNo: a.applicationNo,
      formCode: options.formCode ?? 'A2',
      applicationType: options.applicationType ?? 'NEWSCH',
      status: options.status,
      applicantNameEn: `Test Applicant ${n}`,
      email: a.email,
      mobile: a.mobile,
      language: 'en',
      ...(options.premisesAddressEn ? { premisesAddressEn: options.premisesAddressEn } : {}),
    })
    .onConflictDoNothing({ target: applications.applicationNo })
    .returning({ id: applications.id });
  if (!row) return undefined;
  const date = options.date ?? new Date('2026-10-01T09:00:00+08:00');
  await db.insert(applicationHistory).values({
    applicationId: row.id,
    submissionDate: date,
    documentType: 'APPLICATION_FORM',
    status: 'SUBMITTED',
    submittedBy: 'APPLICANT',
    date,
  });
  return row.id;
}
