import { z } from 'zod';
import { LANGUAGES } from './language';
import { normaliseHkMobile } from './phone';

/**
 * "Find my case" login by one-time password (OTP): the limits, shared by the API (which enforces them)
 * and the UI (which shows them), and the request bodies' zod schemas. Error messages are i18n keys
 * (namespace `api`), never English text. See docs/decisions/005-one-time-codes.md.
 */
export const OTP_LENGTH = 6;
/** A code is valid for 10 minutes after it is sent. */
export const OTP_TTL_SECONDS = 600;
/** A new code for the same application only 60 s after the last one was sent. */
export const RESEND_AFTER_SECONDS = 60;
/** The fifth wrong try burns the code: a new one must be asked for. */
export const MAX_ATTEMPTS = 5;
/** At most 5 codes per application number per hour (sliding window). */
export const MAX_SENDS_PER_HOUR = 5;
/** At most 10 codes per contact address (email or mobile) per hour, across applications. */
export const MAX_SENDS_PER_ADDRESS_PER_HOUR = 10;
/** Three burnt codes within an hour lock the application number ... */
export const BURNS_BEFORE_LOCK = 3;
/** ... for 15 minutes after the last burn: no code is sent and none is accepted. */
export const LOCK_MINUTES = 15;
/** A session ends 12 hours after login however active it is (and earlier when idle). */
export const SESSION_ABSOLUTE_HOURS = 12;

/** Application numbers: `A2-2026-000123`, `CCCAI-C2-2026-000045`, `SCS-1-2026-000012` (after upper-casing). */
export const APPLICATION_NO_PATTERN = /^[A-Z0-9][A-Z0-9-]{3,31}$/;
export const EMAIL_MAX_LENGTH = 254;
export const OTP_PATTERN = /^[0-9]{6}$/;

/** Hong Kong mobile numbers: the rule lives in phone.ts (shared with the application forms). */

/** Full-width digits (０-９, as a Chinese input method types them) to ASCII 0-9; anything else is kept. */
export function normaliseDigits(value: string): string {
  return value.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 0x30));
}

/**
 * Full-width forms to ASCII (NFKC folds `Ａ２－２０２６` to `A2-2026` and `＠` to `@`), trimmed.
 * Used on the application number and the contact, which an applicant may type with a Chinese keyboard.
 */
function foldWidth(value: string): string {
  return value.normalize('NFKC').trim();
}

/** The application number as stored: full-width folded, trimmed, upper case. */
export function normaliseApplicationNo(value: string): string {
  return foldWidth(value).toUpperCase();
}

/** An email address compared case-insensitively: trimmed and lower case. */
export function normaliseEmail(value: string): string {
  return foldWidth(value).toLowerCase();
}

export type Contact = { kind: 'email'; value: string } | { kind: 'mobile'; value: string };

const emailSchema = z.email().max(EMAIL_MAX_LENGTH);

/** Reads what the applicant typed as an email (it holds `@`) or a Hong Kong mobile; undefined if neither. */
export function parseContact(value: string): Contact | undefined {
  const folded = foldWidth(value);
  if (folded.includes('@')) {
    const email = normaliseEmail(folded);
    return emailSchema.safeParse(email).success ? { kind: 'email', value: email } : undefined;
  }
  const mobile = normaliseHkMobile(folded);
  return mobile ? { kind: 'mobile', value: mobile } : undefined;
}

/** `email:<lower case address>` or `mobile:<8 digits>`: equal for the same address however it was typed. */
export function contactKey(contact: Contact): string {
  return `${contact.kind}:${contact.value}`;
}

function text(field: string) {
  return z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? `validation.${field}.required`
        : `validation.${field}.notText`,
  });
}

export const applicationNoSchema = text('applicationNo')
  .overwrite(normaliseApplicationNo)
  .min(1, { error: 'validation.applicationNo.required', abort: true })
  .regex(APPLICATION_NO_PATTERN, { error: 'validation.applicationNo.invalid' });

/** Email or Hong Kong mobile; parsed into a `Contact`. */
export const contactSchema = text('contact')
  .overwrite(foldWidth)
  .min(1, { error: 'validation.contact.required', abort: true })
  .max(EMAIL_MAX_LENGTH, { error: 'validation.contact.invalid', abort: true })
  .transform((value, ctx) => {
    const contact = parseContact(value);
    if (!contact) {
      ctx.addIssue({ code: 'custom', message: 'validation.contact.invalid' });
      return z.NEVER;
    }
    return contact;
  });

/** Exactly 6 digits; full-width digits are accepted and made ASCII, spaces around are trimmed. */
export const otpCodeSchema = text('otpCode')
  .overwrite((value) => normaliseDigits(value).trim())
  .min(1, { error: 'validation.otpCode.required', abort: true })
  .regex(OTP_PATTERN, { error: 'validation.otpCode.invalid' });

export const langSchema = z.enum(LANGUAGES, { error: 'validation.lang.invalid' });

/** POST /api/auth/otp/send */
export const otpSendSchema = z.object(
  { applicationNo: applicationNoSchema, contact: contactSchema, lang: langSchema.optional() },
  { error: 'validation.body.notObject' },
);

/** POST /api/auth/otp/verify */
export const otpVerifySchema = z.object(
  {
    applicationNo: applicationNoSchema,
    contact: contactSchema,
    code: otpCodeSchema,
    lang: langSchema.optional(),
  },
  { error: 'validation.body.notObject' },
);

export type OtpSendRequest = z.infer<typeof otpSendSchema>;
export type OtpVerifyRequest = z.infer<typeof otpVerifySchema>;

/** 200 of POST /api/auth/otp/send: the same for every application number and contact. */
export interface OtpSentData {
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

/** 200 of POST /api/auth/otp/verify. */
export interface LoginData {
  token: string;
  applicationNo: string;
  /** 'applicant' (Find my case), or 'ap' / 'rse' (an appointee's login). */
  role: 'applicant' | 'ap' | 'rse';
  /** The routes and buttons of spec §3's client session state for the role (machines/rules/grants.ts). */
  authRoutes: string[];
  authButtons: string[];
  userId: string;
  idleTimeoutMinutes: number;
  /** ISO 8601. */
  absoluteExpiresAt: string;
}

/** 200 of GET /api/auth/session. */
export interface SessionData {
  applicationNo: string;
  role: 'applicant' | 'ap' | 'rse';
  authRoutes: string[];
  authButtons: string[];
  userId: string;
  idleExpiresAt: string;
  absoluteExpiresAt: string;
}
