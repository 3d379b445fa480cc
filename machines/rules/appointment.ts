import { z } from 'zod';
import { HKIC_INPUT_MAX } from '../forms/limits';
import { isValidHkic, normaliseHkic } from './hkic';
import { contactSchema, langSchema, otpCodeSchema } from './otp';
import { formatCalendarDate } from './dates';
import type { Language } from './language';
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

/** The envelope code of an HKIC number that fails its check (spec §8: HKICNO, the invalid ID number message). */
export const HKIC_INVALID_CODE = 'HKICNO';

/**
 * An HKIC number as a signer gives it for iAM Smart ("A123456(3)", "a1234563"; the service checks the
 * holder): the check character is checked by the rule of the application form (machines/rules/hkic.ts), so
 * A1234567 is refused here, with the form's message, before iAM Smart is asked.
 */
export const hkicSchema = z
  .string({ error: 'validation.hkic.required' })
  .trim()
  .min(1, { error: 'validation.hkic.required' })
  .refine((v) => v.length <= HKIC_INPUT_MAX && isValidHkic(normaliseHkic(v)), {
    error: 'validation.hkic.invalid',
    params: { code: HKIC_INVALID_CODE },
  });

/** POST /api/appointments/invitation/signing/iamsmart: the appointee's HKIC, which iAM Smart checks. */
export const invitationIamSmartSchema = body({
  token: invitationTokenSchema,
  hkic: hkicSchema,
  lang: langSchema.optional(),
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

/**
 * POST /api/appointee/contact/send: the holder's new email or mobile (one at a time); a code goes to the
 * one on file and one to the new one (docs/decisions/025-registration-holders.md).
 */
export const holderContactSendSchema = body({ contact: contactSchema, lang: langSchema.optional() });

/** POST /api/appointee/contact/verify: the new contact and both codes (the old contact's, the new one's). */
export const holderContactVerifySchema = body({
  contact: contactSchema,
  oldCode: otpCodeSchema,
  newCode: otpCodeSchema,
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
  /**
   * The email and mobile are the ones the department holds for the registration number, not the ones the
   * applicant typed: the applicant sees them masked (docs/decisions/025-registration-holders.md).
   */
  registeredContacts: boolean;
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

/** The first line of a declaration: its title, with the appointment's id (what is signed names it). */
const DECLARATION_TITLE = /^(Declaration of appointment|委任聲明|委任声明) \d+$/;

/**
 * The declaration as a person reads it on the page: its statement as one paragraph, without the title
 * line and its appointment id (the page heads it with its own heading). The signed text stays as it is.
 */
export function declarationStatement(declaration: string): string {
  const lines = declaration.split('\n').map((l) => l.trim());
  const body = lines[0] !== undefined && DECLARATION_TITLE.test(lines[0]) ? lines.slice(1) : lines;
  return body.filter(Boolean).join(lines.some((l) => /[\u4e00-\u9fff]/.test(l)) ? '' : ' ');
}

export interface DeclarationFacts {
  applicationNo: string;
  identity: Identity;
  nameEn: string;
  registrationNumber: string;
  expiryDate: string;
  appointmentId: number;
}

const ROLE: Record<Language, Record<Identity, string>> = {
  en: { ap: 'Authorized Person', rse: 'Registered Structural Engineer' },
  tc: { ap: '認可人士', rse: '註冊結構工程師' },
  sc: { ap: '认可人士', rse: '注册结构工程师' },
};

/** The Chinese wording of the declaration, one per script (the same sentence). */
const CHINESE_WORDING = {
  tc: {
    title: '委任聲明',
    registered: '為根據《建築物條例》（第123章）註冊的',
    number: '註冊編號',
    validUntil: '註冊有效期至',
    accept: '接受申請編號',
    ofApplicant: '的申請人的委任，',
    declare: '並聲明本人將就此申請的工程代表申請人行事。',
  },
  sc: {
    title: '委任声明',
    registered: '为根据《建筑物条例》（第123章）注册的',
    number: '注册编号',
    validUntil: '注册有效期至',
    accept: '接受申请编号',
    ofApplicant: '的申请人的委任，',
    declare: '并声明本人将就此申请的工程代表申请人行事。',
  },
} as const;

/**
 * The declaration of appointment: what the appointee signs (its SHA-256, with the appointment's facts,
 * is the digest handed to iAM Smart or signed by the e-Cert), in the language the appointee reads it in,
 * its date as a person reads it (docs/decisions/020-appointments.md, "The declaration's language"). Each
 * language's wording is fixed: changing one changes what a new signature covers, never an old one.
 */
export function declarationText(a: DeclarationFacts, language: Language = 'en'): string {
  const role = ROLE[language][a.identity];
  const until = formatCalendarDate(a.expiryDate, language);
  if (language !== 'en') {
    const w = CHINESE_WORDING[language];
    return [
      `${w.title} ${a.appointmentId}`,
      `本人${a.nameEn}${w.registered}${role}，${w.number}${a.registrationNumber}`,
      `（${w.validUntil}${until}），${w.accept}${a.applicationNo}${w.ofApplicant}`,
      w.declare,
    ].join('\n');
  }
  return [
    `Declaration of appointment ${a.appointmentId}`,
    `I, ${a.nameEn}, ${role} registered under the Buildings Ordinance (Cap 123) as ${a.registrationNumber}`,
    `(registration valid until ${until}), accept my appointment by the applicant of application`,
    `${a.applicationNo} and declare that I will act for the applicant on the works of this application.`,
  ].join('\n');
}
