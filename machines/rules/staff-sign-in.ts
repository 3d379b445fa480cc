import { z } from 'zod';

/**
 * Staff sign-in (docs/console.md): its body and its limits (docs/decisions/030-sign-in-lockouts.md).
 * Codes, never text.
 */

/**
 * Failed sign-ins of one account from one address within LOCKOUT_SECONDS before that account is locked
 * from that address for the rest of the window.
 */
export const SIGN_IN_ATTEMPTS = 5;
export const LOCKOUT_SECONDS = 15 * 60;
/** Failed sign-ins from one address, whatever the user names, within LOCKOUT_SECONDS. */
export const SIGN_IN_ADDRESS_ATTEMPTS = 30;
/**
 * Consecutive failed sign-ins of one account from addresses it has never signed in from (within
 * SIGN_IN_KNOWN_DAYS): past SIGN_IN_SLOW_AFTER such addresses get one try every SIGN_IN_SLOW_SECONDS,
 * past SIGN_IN_ACCOUNT_CEILING none until SIGN_IN_CEILING_SECONDS have passed or the officer signs in.
 */
export const SIGN_IN_SLOW_AFTER = 10;
export const SIGN_IN_SLOW_SECONDS = 30;
export const SIGN_IN_ACCOUNT_CEILING = 100;
export const SIGN_IN_CEILING_SECONDS = 24 * 60 * 60;
export const SIGN_IN_KNOWN_DAYS = 90;

const invalid = { error: 'staff.invalid' } as const;
const required = { error: 'staff.required' } as const;

/** POST /api/staff/session: the password and a 6-digit TOTP code, or a recovery code instead. */
export const signInSchema = z.object({
  username: z.string(invalid).trim().toLowerCase().min(1, required).max(64, invalid),
  password: z.string(invalid).min(1, required).max(256, invalid),
  code: z
    .string(invalid)
    .trim()
    .min(1, required)
    .regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/i, invalid),
});
export type SignIn = z.infer<typeof signInSchema>;
