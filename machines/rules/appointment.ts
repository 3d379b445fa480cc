import { z } from 'zod';
import { contactSchema, langSchema, otpCodeSchema } from './otp';
import { IDENTITIES, parseRegistrationNumber, type Identity } from './registration';

/**
 * Appointments of an AP or RSE to a case (docs/decisions/020-appointments.md): their statuses,
 * the invitation's life, and the schemas of the endpoints the appointee and the AP/RSE login use (the
 * browser and the API validate with the same ones).
 */

export const APPOINTMENT_STATUSES = [
  'INVITED',
  'ACTIVE',
  'CANCELLED',
  'REVOKED',
  'REPLACED',
  'LAPSED',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** An invitation link works this many days (then the applicant appoints again). */
export const INVITATION_DAYS = 7;
/** The appointee and the applicant are told this many days before the registration expires. */
export const EXPIRY_NOTICE_DAYS = 14;
/** The longest reason for revoking an appointment, in characters. */
export const REVOKE_REASON_MAX = 500;
/** 32 random bytes in base64url: the invitation token. */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Our id of a declaration signing (random, 32 hex). */
export const SIGNING_REQUEST_PATTERN = /^[0-9a-f]{32}$/;

/** Every invitation token answers the same when it is malformed, unknown or tampered with. */
export const invitationTokenSchema = z
  .string({ error: 'validation.invitation.invalid' })
  .regex(INVITATION_TOKEN_PATTERN, { error: 'validation.invitation.invalid' });

const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: 'validation.body.notObject' });

/** POST /api/appointments/invitation */
export const invitationSchema = body({ token: invitationTokenSchema, lang: langSchema.optional() });

/** POST /api/appointments/invitation/otp/send: the code goes to the appointment's email or mobile. */
export const invitationOtpSendSchema = body({
  token: invitationTokenSchema,
  channel: z.enum(['email', 'mobile'], { error: 'validation.invitation.channel' }),
});

/** POST /api/appointments/invitation/otp/verify */
export const invitationOtpVerifySchema = body({
  token: invitationTokenSchema,
  channel: z.enum(['email', 'mobile'], { error: 'validation.invitation.channel' }),
  code: otpCodeSchema,
});

/** An HKIC number as a signer gives it for iAM Smart ("A123456(3)"; the service checks the holder). */
export const hkicSchema = z
  .string({ error: 'validation.hkic.required' })
  .trim()
  .regex(/^[A-Z]{1,2}[0-9]{6}\(?[0-9A]\)?$/i, { error: 'validation.hkic.invalid' });

/** POST /api/appointments/invitation/signing/iamsmart: the appointee's HKIC, which iAM Smart checks. */
export const invitationIamSmartSchema = body({
  token: invitationTokenSchema,
  hkic: hkicSchema,
});

/** POST /api/appointments/invitation/accept: the signed declaration's reference. */
export const invitationAcceptSchema = body({
  token: invitationTokenSchema,
  signingId: z
    .string({ error: 'validation.invitation.signing' })
    .regex(SIGNING_REQUEST_PATTERN, { error: 'validation.invitation.signing' }),
});

/** A registration number of either register, normalised ("AP(A) 1234", "RSE 567"). */
export const registrationNumberSchema = z
  .string({ error: 'validation.registrationNumber.required' })
  .transform((value, ctx) => {
    const parsed = parseRegistrationNumber(value);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: 'validation.registrationNumber.invalid' });
      return z.NEVER;
    }
    return parsed.value;
  });

/** POST /api/auth/appointee/otp/send */
export const appointeeOtpSendSchema = body({
  registrationNumber: registrationNumberSchema,
  contact: contactSchema,
  lang: langSchema.optional(),
});

/** POST /api/auth/appointee/otp/verify */
export const appointeeOtpVerifySchema = body({
  registrationNumber: registrationNumberSchema,
  contact: contactSchema,
  code: otpCodeSchema,
  lang: langSchema.optional(),
});

/** POST /api/cases/current/appointments/:id/revoke */
export const revokeSchema = body({
  reason: z
    .string({ error: 'validation.revokeReason.required' })
    .trim()
    .min(1, { error: 'validation.revokeReason.required' })
    .max(REVOKE_REASON_MAX, { error: 'validation.revokeReason.tooLong' }),
});

/** POST /api/appointee/cases/select */
export const selectCaseSchema = body({
  applicationNo: z.string({ error: 'validation.applicationNo.required' }).min(1).max(40),
});

/** An appointment as the applicant's case page and the appointee's screens show it. */
export interface AppointmentView {
  id: number;
  identity: Identity;
  nameEn: string;
  nameZh: string | null;
  registrationNumber: string;
  /** Masked for the appointee before they confirm a contact (a***@example.com, ****5678). */
  email: string;
  mobile: string;
  expiryDate: string;
  status: AppointmentStatus;
  invitedAt: string;
  acceptedAt: string | null;
  endedAt: string | null;
  endReason: string | null;
}

/** What the invitation link shows the appointee: the appointment and the case it is for. */
export interface InvitationView {
  appointment: AppointmentView;
  applicationNo: string;
  formCode: string;
  caseStatus: string;
  premisesAddress: string | null;
  applicantName: string | null;
  confirmed: boolean;
  /** The declaration the appointee signs (its SHA-256 is what is signed). */
  declaration: string;
}

/** A case an AP/RSE is appointed to (their list after login). */
export interface AppointeeCase {
  applicationNo: string;
  formCode: string;
  status: string;
  identity: Identity;
  acceptedAt: string | null;
  expiryDate: string;
}

export const isIdentity = (value: unknown): value is Identity =>
  typeof value === 'string' && (IDENTITIES as readonly string[]).includes(value);

/** "a***@example.com": enough for the appointee to recognise it, not enough to learn it. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export function maskMobile(mobile: string): string {
  return `****${mobile.slice(-4)}`;
}

/**
 * The declaration of appointment: what the appointee signs (its SHA-256, with the appointment's facts,
 * is the digest handed to iAM Smart or signed by the e-Cert).
 */
export function declarationText(a: {
  applicationNo: string;
  identity: Identity;
  nameEn: string;
  registrationNumber: string;
  expiryDate: string;
  appointmentId: number;
}): string {
  const role = a.identity === 'ap' ? 'Authorized Person' : 'Registered Structural Engineer';
  return [
    `Declaration of appointment ${a.appointmentId}`,
    `I, ${a.nameEn}, ${role} registered under the Buildings Ordinance (Cap 123) as ${a.registrationNumber}`,
    `(registration valid until ${a.expiryDate}), accept my appointment by the applicant of application`,
    `${a.applicationNo} and declare that I will act for the applicant on the works of this application.`,
  ].join('\n');
}
