import type { Db } from '../../drizzle/db';
import { applications } from '../../drizzle/schema';
import { testApplicant } from './fixtures';

/**
 * The cases the self-certification browser tests certify (issue 16): one application of a matching form
 * for each self-certification form, numbered 71 to 75 of the test applicants (serve.ts seeds 1 to 48).
 */
export const SELF_CERT_CASES = {
  scs1: { n: 71, formCode: 'A2', applicationType: 'NEWSCH' },
  scs2: { n: 72, formCode: 'E2', applicationType: 'EXTSCH' },
  scc1: { n: 73, formCode: 'CCCAI-C2', applicationType: 'NEWCCC' },
  scc2: { n: 74, formCode: 'F2', applicationType: 'NEWCCC' },
  scn1: { n: 75, formCode: 'C2', applicationType: 'NLHE' },
} as const;

/** The application number of the case a form's test certifies. */
export const caseNoFor = (key: keyof typeof SELF_CERT_CASES) =>
  testApplicant(SELF_CERT_CASES[key].n).applicationNo;

export async function seedSelfCertCases(db: Db): Promise<void> {
  await db.insert(applications).values(
    Object.values(SELF_CERT_CASES).map(({ n, formCode, applicationType }) => {
      const a = testApplicant(n);
      return {
        applicationNo: a.applicationNo,
        formCode,
        applicationType,
        status: 'SUBMITTED',
        applicantNameEn: `Test Applicant ${n}`,
        email: a.email,
        mobile: a.mobile,
        language: 'en',
      };
    }),
  );
}
