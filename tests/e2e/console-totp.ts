import * as OTPAuth from 'otpauth';
import { E2E_TOTP_SECRET } from './fixtures-console';

/**
 * The console test accounts' TOTP code now, computed with the same library the server checks it with. One
 * code is accepted once per user: each test that signs in has its own account (fixtures-console.ts).
 */
export const totp = () =>
  new OTPAuth.TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(E2E_TOTP_SECRET),
  }).generate();
