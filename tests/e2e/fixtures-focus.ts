import { eq } from 'drizzle-orm';
import { hashToken } from '../../api/modules/auth/sessions';
import type { Db } from '../../drizzle/db';
import { appointmentInvitations, appointments, applications, caseVersions } from '../../drizzle/schema';
import { formByKey } from '../../machines/forms';
import type { Language } from '../../machines/rules/language';
import { insertAcceptedAppointment } from '../api/accepted-appointment';
import { testApplicant } from './fixtures';
import { seedTestCase } from './seed-case';

/**
 * The cases of the focus checks (tests/e2e/focus-after-send.spec.ts, applicants 111–118), one per flow and
 * language so that the one-time code limits never couple two tests: a case submitted with only its email
 * confirmed (the mobile only typed on the form), an AP to log in as, an open invitation, and a case to send
 * a supporting document to.
 */
export const FOCUS_CASES = {
  findMyCase: { en: 111, tc: 112 },
  appointee: { en: 113, tc: 114 },
  invitation: { en: 115, tc: 116 },
  upload: { en: 117, tc: 118 },
} as const satisfies Record<string, Record<Exclude<Language, 'sc'>, number>>;

/** The AP appointed to the `appointee` cases, one per language. */
export const focusAp = (n: number) => ({
  registrationNumber: `AP(A) ${n}00`,
  email: `e2e-ap-${n}00@example.hk`,
  mobile: `920${String(n).padStart(5, '0')}`,
});

/** The invitation tokens of the `invitation` cases (43 characters of base64url, like a real one). */
export const focusInvitationToken = (n: number) => `e2eFocusInvite${n}abcdefghijklmnopqrstuvwxyz`;

export async function seedFocusCases(db: Db): Promise<void> {
  const form = formByKey('a2');
  if (!form) throw new Error('form a2 missing');
  const now = new Date();
  const date = new Date('2026-10-01T09:00:00+08:00');
  const withAnswers = async (n: number, status: string) => {
    const a = testApplicant(n);
    const id = await seedTestCase(db, n, {
      status,
      formCode: form.code,
      applicationType: form.applicationType,
      date,
    });
    if (id === undefined) throw new Error(`case ${n} not seeded`);
    // The application as submitted: the applicant's email and mobile as typed on the form.
    await db.insert(caseVersions).values({
      applicationId: id,
      version: 1,
      answers: { ...form.example, applicantEmail: a.email, applicantMobile: a.mobile },
      reference: a.applicationNo,
      submittedBy: 'APPLICANT',
      createdAt: date,
    });
    return id;
  };

  for (const n of Object.values(FOCUS_CASES.findMyCase)) {
    const id = await withAnswers(n, 'ACKNOWLEDGED');
    // Confirmed by email at the preview: only the email is on the case row.
    await db.update(applications).set({ mobile: null }).where(eq(applications.id, id));
  }
  for (const n of Object.values(FOCUS_CASES.upload)) await withAnswers(n, 'ACKNOWLEDGED');

  const expiryDate = `${now.getUTCFullYear() + 2}-06-30`;
  const base = (applicationId: number) => ({
    applicationId,
    identity: 'ap',
    nameEn: 'LEE SIU MING',
    expiryDate,
    language: 'en',
    invitedAt: now,
  });
  for (const n of Object.values(FOCUS_CASES.appointee)) {
    const id = await seedTestCase(db, n, { status: 'LOR_ISSUED' });
    if (id === undefined) throw new Error(`case ${n} not seeded`);
    await insertAcceptedAppointment(db, { ...base(id), ...focusAp(n), acceptedAt: now });
  }
  for (const n of Object.values(FOCUS_CASES.invitation)) {
    const id = await seedTestCase(db, n, { status: 'LOR_ISSUED' });
    if (id === undefined) throw new Error(`case ${n} not seeded`);
    const [made] = await db
      .insert(appointments)
      .values({
        ...base(id),
        registrationNumber: `AP(E) ${n}00`,
        email: `e2e-appointee-${n}@example.hk`,
        mobile: `930${String(n).padStart(5, '0')}`,
        status: 'INVITED',
      })
      .returning({ id: appointments.id });
    await db.insert(appointmentInvitations).values({
      appointmentId: made!.id,
      tokenHash: hashToken(focusInvitationToken(n)),
      createdAt: now,
      expiresAt: new Date(now.getTime() + 7 * 24 * 3_600_000),
    });
  }
}
