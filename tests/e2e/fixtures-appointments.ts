import { hashToken } from '../../api/modules/auth/sessions';
import type { Db } from '../../drizzle/db';
import { appointmentInvitations, appointments } from '../../drizzle/schema';
import { seedTestCase } from './seed-case';

/**
 * The browser tests' cases of issue 12 (applicants 61–70, seeded here, after the plain ones of serve.ts):
 * the journey's case, a case with an active AP to log in as, and one with an open invitation whose token
 * the tests know (only its hash is stored, as for every invitation).
 */
export const APPOINTMENT_CASES = {
  /** The full journey: the applicant appoints, the AP accepts and requests an inspection, the applicant revokes. */
  journey: { n: 61, status: 'LOR_ISSUED' },
  /** An active AP (below) to log in as, for the short checks in each language. */
  withAp: { n: 62, status: 'LOR_ISSUED' },
  /** An open invitation with a known token. */
  invited: { n: 63, status: 'LOR_ISSUED' },
  /** The keyboard-only acceptance. */
  keyboard: { n: 64, status: 'LOR_ISSUED' },
} as const;

export const SEEDED_AP = {
  nameEn: 'CHAN TAI MAN',
  registrationNumber: 'AP(A) 6200',
  email: 'e2e-ap-6200@example.hk',
  mobile: '91006200',
};

/** The tokens of the seeded invitations (each 43 characters of base64url, like a real one). */
export const INVITATION_TOKENS = {
  invited: 'e2eInvitation0063abcdefghijklmnopqrstuvwxyz',
  keyboard: 'e2eInvitation0064abcdefghijklmnopqrstuvwxyz',
};

export async function seedAppointmentCases(db: Db): Promise<void> {
  const now = new Date();
  const expiryDate = `${now.getUTCFullYear() + 2}-06-30`;
  for (const [key, { n, status }] of Object.entries(APPOINTMENT_CASES)) {
    const applicationId = await seedTestCase(db, n, { status });
    if (applicationId === undefined) continue;
    const base = {
      applicationId,
      identity: 'ap',
      nameEn: SEEDED_AP.nameEn,
      expiryDate,
      language: 'en',
      invitedAt: now,
    };
    if (key === 'withAp')
      await db.insert(appointments).values({
        ...base,
        registrationNumber: SEEDED_AP.registrationNumber,
        email: SEEDED_AP.email,
        mobile: SEEDED_AP.mobile,
        status: 'ACTIVE',
        acceptedAt: now,
      });
    if (key === 'invited' || key === 'keyboard') {
      const [made] = await db
        .insert(appointments)
        .values({
          ...base,
          registrationNumber: `AP(E) ${n}00`,
          email: `e2e-appointee-${n}@example.hk`,
          mobile: `910${String(n).padStart(5, '0')}`,
          status: 'INVITED',
        })
        .returning({ id: appointments.id });
      await db.insert(appointmentInvitations).values({
        appointmentId: made!.id,
        tokenHash: hashToken(INVITATION_TOKENS[key]),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 7 * 24 * 3_600_000),
      });
    }
  }
}
