import { eq } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { applicationHistory, caseDocuments, caseVersions } from '../../drizzle/schema';
import { formByKey } from '../../machines/forms';
import { insertAcceptedAppointment } from '../api/accepted-appointment';
import { testApplicant } from './fixtures';
import { seedTestCase } from './seed-case';

/**
 * The "AP takeover" replayed in the browser (docs/decisions/025-registration-holders.md): for each
 * language, case X whose AP holds a registration number (accepted there, so the holder is on file), and
 * case Z of another applicant who appoints the same number with Z's own email and mobile. Applicants 76 to
 * 80 of the test applicants; seeded by one line of serve.ts.
 */
export const TAKEOVER = {
  en: {
    x: 76,
    z: 77,
    holder: {
      nameEn: 'WONG TAK HING',
      nameZh: '黃德興',
      registrationNumber: 'AP(A) 7600',
      // A first letter and last digits of their own, so that the masked contacts tell them from Z's.
      email: 'wong.th.7600@example.com',
      mobile: '91007600',
      language: 'en',
    },
  },
  tc: {
    x: 78,
    z: 79,
    holder: {
      nameEn: 'LAU KA MING',
      nameZh: '劉家明',
      registrationNumber: 'AP(E) 7800',
      email: 'lau.km.7800@example.com',
      mobile: '91007800',
      language: 'tc',
    },
  },
} as const;

/** A case whose applicant appoints a number without a holder: what the done screen says of every number. */
export const PLAIN_APPOINTMENT_CASE = 80;

/** The identity card number in case Z's application: the applicant's, never shown to an AP. */
export const Z_APPLICANT_HKIC = 'Z6833655';

/**
 * X: LOR issued, the holder's accepted appointment. Z: LOR issued, the application's answers as submitted
 * (with Z's applicant's identity card number, email and mobile) and, under its submission's history row,
 * the signed application form and a layout plan (docs/appointee-visibility.md).
 */
export async function seedTakeoverCases(db: Db): Promise<void> {
  const form = formByKey('a2');
  if (!form) throw new Error('form a2 missing');
  const now = new Date();
  const expiryDate = `${now.getUTCFullYear() + 2}-06-30`;
  await seedTestCase(db, PLAIN_APPOINTMENT_CASE, { status: 'LOR_ISSUED' });
  for (const { x, z, holder } of Object.values(TAKEOVER)) {
    const xId = await seedTestCase(db, x, { status: 'LOR_ISSUED' });
    if (xId === undefined) throw new Error(`case ${x} seeded twice`);
    await insertAcceptedAppointment(db, {
      applicationId: xId,
      identity: 'ap',
      ...holder,
      expiryDate,
      invitedAt: now,
      acceptedAt: now,
    });

    const a = testApplicant(z);
    const zId = await seedTestCase(db, z, { status: 'LOR_ISSUED', date: now });
    if (zId === undefined) throw new Error(`case ${z} seeded twice`);
    await db.insert(caseVersions).values({
      applicationId: zId,
      version: 1,
      answers: {
        ...form.example,
        applicantHkic: Z_APPLICANT_HKIC,
        applicantEmail: a.email,
        applicantMobile: a.mobile,
      },
      reference: a.applicationNo,
      submittedBy: 'APPLICANT',
      createdAt: now,
    });
    const [row] = await db
      .select({ id: applicationHistory.id })
      .from(applicationHistory)
      .where(eq(applicationHistory.applicationId, zId));
    await db.insert(caseDocuments).values(
      (['application', 'layoutPlans'] as const).map((kind) => ({
        applicationId: zId,
        historyId: row!.id,
        kind,
        storageKey: `e2e/${zId}/${kind}`,
        fileName: `${kind}.pdf`,
        sha256: '0'.repeat(64),
        createdAt: now,
      })),
    );
  }
}
