import type { Db } from '../../drizzle/db';
import { applications } from '../../drizzle/schema';
import { issuedDocuments, staffAccounts } from '../../drizzle/schema-staff';
import { testApplicant } from './fixtures';
import { insertAcceptedAppointment } from '../api/accepted-appointment';

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

/**
 * Each case has its Letter of Requirements issued and the forms' example certifier (AP(A) 1234) accepted as
 * its AP: only an AP appointed to a case may self-certify it (docs/flows/case-lifecycle.md).
 */
export async function seedSelfCertCases(db: Db): Promise<void> {
  const made = await db
    .insert(applications)
    .values(
      Object.values(SELF_CERT_CASES).map(({ n, formCode, applicationType }) => {
        const a = testApplicant(n);
        return {
          applicationNo: a.applicationNo,
          formCode,
          applicationType,
          status: 'LOR_ISSUED',
          applicantNameEn: `Test Applicant ${n}`,
          email: a.email,
          mobile: a.mobile,
          language: 'en',
        };
      }),
    )
    .returning({ id: applications.id });
  const now = new Date();
  for (const { id } of made)
    await insertAcceptedAppointment(db, {
      applicationId: id,
      identity: 'ap',
      nameEn: 'WONG Siu Ming',
      registrationNumber: 'AP(A) 1234',
      email: 'e2e-ap-1234@example.hk',
      mobile: '61234568',
      expiryDate: '2030-12-31',
      language: 'en',
      invitedAt: now,
      acceptedAt: now,
    });
}

/**
 * A case whose Letter of Requirements the console issued (on record as `lor.issue`), its AP the forms'
 * certifier: "Self-certify this case" shows that letter's items read only (tests/e2e/selfcert-letter.spec.ts).
 */
export const SELF_CERT_LETTER_CASE = { n: 106, formCode: 'A2', applicationType: 'NEWSCH' } as const;

/** The letter issued on that case (`lor.issue`'s answers). */
export const SELF_CERT_LETTER = {
  bdReference: 'BD 2/9106/26',
  date: '2026-09-15',
  category1: [
    'Provide a second exit route from the classrooms on 5/F.',
    'Fire resisting construction to the staircase enclosure.',
  ],
  category2: ['Handrails on both sides of the ramp.'],
  minorWorks: [],
} as const;

/** Seeded after the console's staff (the letter names the officer who issued it). */
export async function seedSelfCertLetterCase(db: Db): Promise<void> {
  const a = testApplicant(SELF_CERT_LETTER_CASE.n);
  const [made] = await db
    .insert(applications)
    .values({
      applicationNo: a.applicationNo,
      formCode: SELF_CERT_LETTER_CASE.formCode,
      applicationType: SELF_CERT_LETTER_CASE.applicationType,
      status: 'LOR_ISSUED',
      applicantNameEn: `Test Applicant ${SELF_CERT_LETTER_CASE.n}`,
      email: a.email,
      mobile: a.mobile,
      language: 'en',
    })
    .returning({ id: applications.id });
  const [staff] = await db.select({ id: staffAccounts.id }).from(staffAccounts).limit(1);
  if (!made || !staff) throw new Error('the letter case needs the console staff seeded first');
  const now = new Date();
  await insertAcceptedAppointment(db, {
    applicationId: made.id,
    identity: 'ap',
    nameEn: 'WONG Siu Ming',
    registrationNumber: 'AP(A) 1234',
    email: 'e2e-ap-1234@example.hk',
    mobile: '61234568',
    expiryDate: '2030-12-31',
    language: 'en',
    invitedAt: now,
    acceptedAt: now,
  });
  await db.insert(issuedDocuments).values({
    applicationId: made.id,
    event: 'lor.issue',
    reference: `LOR-${a.applicationNo}-1`,
    data: SELF_CERT_LETTER,
    staffId: staff.id,
    createdAt: now,
  });
}
