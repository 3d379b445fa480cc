import { hashToken } from '../../api/modules/auth/sessions';
import type { Db } from '../../drizzle/db';
import { appointmentInvitations, appointments } from '../../drizzle/schema';
import { insertAcceptedAppointment } from '../api/accepted-appointment';
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
  /** Cases whose AP changes their own contact (appointee-contact.spec.ts), one AP per language. */
  contactTc: { n: 65, status: 'LOR_ISSUED' },
  contactEn: { n: 66, status: 'LOR_ISSUED' },
  contactSc: { n: 67, status: 'LOR_ISSUED' },
  /** The acceptance page's HKIC check, status and date, signed to the end (appointment-accept.spec.ts), in tc. */
  acceptTc: { n: 101, status: 'SUBMITTED' },
  /** The same page up to the signing step, in English and in Simplified Chinese. */
  acceptEn: { n: 102, status: 'SUBMITTED' },
  acceptSc: { n: 103, status: 'SUBMITTED' },
} as const;

export const SEEDED_AP = {
  nameEn: 'CHAN TAI MAN',
  registrationNumber: 'AP(A) 6200',
  email: 'e2e-ap-6200@example.hk',
  mobile: '91006200',
};

/**
 * The APs who change their own email (appointee-contact.spec.ts): numbers of their own, so that the change
 * and its one-time password limits touch no other test.
 */
export const CONTACT_APS = {
  tc: {
    key: 'contactTc',
    registrationNumber: 'AP(A) 6500',
    email: 'e2e-ap-6500@example.hk',
    mobile: '91006500',
  },
  en: {
    key: 'contactEn',
    registrationNumber: 'AP(A) 6600',
    email: 'e2e-ap-6600@example.hk',
    mobile: '91006600',
  },
  sc: {
    key: 'contactSc',
    registrationNumber: 'AP(A) 6700',
    email: 'e2e-ap-6700@example.hk',
    mobile: '91006700',
  },
} as const;

/** The tokens of the seeded invitations (each 43 characters of base64url, like a real one). */
export const INVITATION_TOKENS = {
  invited: 'e2eInvitation0063abcdefghijklmnopqrstuvwxyz',
  keyboard: 'e2eInvitation0064abcdefghijklmnopqrstuvwxyz',
  acceptTc: 'e2eInvitation0101abcdefghijklmnopqrstuvwxyz',
  acceptEn: 'e2eInvitation0102abcdefghijklmnopqrstuvwxyz',
  acceptSc: 'e2eInvitation0103abcdefghijklmnopqrstuvwxyz',
};

/** The registration's expiry date of the seeded appointments (30 June, two years on). */
export const SEEDED_EXPIRY_DATE = `${new Date().getUTCFullYear() + 2}-06-30`;

export async function seedAppointmentCases(db: Db): Promise<void> {
  const now = new Date();
  const expiryDate = SEEDED_EXPIRY_DATE;
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
    // Accepted by the number's holder (docs/decisions/025-registration-holders.md).
    if (key === 'withAp')
      await insertAcceptedAppointment(db, {
        ...base,
        registrationNumber: SEEDED_AP.registrationNumber,
        email: SEEDED_AP.email,
        mobile: SEEDED_AP.mobile,
        acceptedAt: now,
      });
    const changer = Object.values(CONTACT_APS).find((ap) => ap.key === key);
    if (changer)
      await insertAcceptedAppointment(db, {
        ...base,
        registrationNumber: changer.registrationNumber,
        email: changer.email,
        mobile: changer.mobile,
        acceptedAt: now,
      });
    if (key in INVITATION_TOKENS) {
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
        tokenHash: hashToken(INVITATION_TOKENS[key as keyof typeof INVITATION_TOKENS]),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 7 * 24 * 3_600_000),
      });
    }
  }
}
