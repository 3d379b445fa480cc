import { z } from 'zod';
import { LANGUAGES } from './language';
import { firstUnprintable } from './printable';
import { STAFF_ROLES, type StaffRole } from './staff';

/**
 * The admin's part of the console (docs/console.md, "Staff administration";
 * docs/decisions/036-staff-administration.md): the bodies of its endpoints and their answers. Codes,
 * never text.
 */

const invalid = { error: 'staff.invalid' } as const;
const required = { error: 'staff.required' } as const;

/** One line of printable text, trimmed. */
const line = (max: number) =>
  z
    .string(invalid)
    .trim()
    .min(1, required)
    .max(max, invalid)
    .refine((v) => firstUnprintable(v) === undefined && !/[\r\n<>]/.test(v), { error: 'staff.plainText' });

/** A sign-in name: lower case letters, digits, dot, hyphen or underscore, starting with a letter. */
export const STAFF_USERNAME = /^[a-z][a-z0-9._-]{2,63}$/;

/** POST /api/staff/accounts: a new account; the password and the first TOTP are the portal's (036). */
export const staffCreateSchema = z.object({
  username: z
    .string(invalid)
    .trim()
    .toLowerCase()
    .min(1, required)
    .regex(STAFF_USERNAME, { error: 'staffAdmin.username' }),
  role: z.enum(STAFF_ROLES, invalid),
  nameEn: line(100),
  nameZh: line(100),
  postEn: line(100),
  postZh: line(100),
  telephone: z
    .string(invalid)
    .trim()
    .min(1, required)
    .regex(/^\+?[0-9][0-9 -]{6,19}$/, { error: 'staffAdmin.telephone' }),
  email: z
    .string(invalid)
    .trim()
    .min(1, required)
    .max(254, invalid)
    .pipe(z.email({ error: 'staffAdmin.email' })),
  /** The language of the officer's emails (the inbox digest, decision 039); default English. */
  language: z.enum(LANGUAGES, invalid).optional(),
});
export type StaffCreate = z.infer<typeof staffCreateSchema>;

/** POST /api/staff/accounts/:id/reassign: the colleague who takes the officer's open cases. */
export const staffReassignSchema = z.object({
  toStaffId: z.number(invalid).int(invalid).positive(invalid).max(2_147_483_647, invalid),
});

/** POST /api/staff/enrolment: a code of the new TOTP, confirming the authenticator app has it. */
export const staffEnrolSchema = z.object({
  code: z
    .string(invalid)
    .trim()
    .min(1, required)
    .regex(/^\d{6}$/, invalid),
});

/** The path's account id. */
export const staffIdParam = z.coerce.number().int().positive().max(2_147_483_647);

/** A row of the admin's staff list. */
export interface StaffAdminRow {
  id: number;
  username: string;
  role: StaffRole;
  nameEn: string;
  nameZh: string;
  postEn: string;
  postZh: string;
  active: boolean;
  /** Locked by failed sign-ins (decision 030) until then (ISO), or null. */
  lockedUntil: string | null;
  /** A new TOTP is waiting for enrolment. */
  totpPending: boolean;
  lastSignInAt: string | null;
  /** Open cases assigned to the account. */
  openCases: number;
}

/** 201 of POST /api/staff/accounts: shown to the admin once, never kept in the clear. */
export interface StaffCreated {
  account: StaffAdminRow;
  /** The first password: the officer signs in with it and this enrolment code. */
  initialPassword: string;
  enrolmentCode: string;
}

/** 200 of a TOTP reset: the one-time code the officer signs in with to enrol the new TOTP. */
export interface StaffTotpReset {
  account: StaffAdminRow;
  enrolmentCode: string;
}

/** 200 of a reassignment. */
export interface StaffReassigned {
  /** The cases moved to the colleague. */
  moved: string[];
  /** Open cases that changed meanwhile (another officer took or finished them): left as they are. */
  skipped: number;
}

/** GET /api/staff/enrolment: the new TOTP for the authenticator app. */
export interface StaffEnrolment {
  otpauthUri: string;
  secret: string;
}

/** 200 of POST /api/staff/enrolment: the new recovery codes, shown once. */
export interface StaffEnrolled {
  recoveryCodes: string[];
}
