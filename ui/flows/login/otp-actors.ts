import i18next from 'i18next';
import { fromPromise } from 'xstate';
import { isLanguage } from '../../../machines/rules/language';
import type {
  LoginSession,
  OtpError,
  SendCodeInput,
  SendCodeOutput,
  VerifyCodeInput,
} from '../../../machines/flows/login-otp.machine';
import { api, ApiError } from '../../api';

/** An API failure as the login machine's typed error. */
export function toOtpError(error: unknown): OtpError {
  if (!(error instanceof ApiError)) return { kind: 'network' };
  const data = (error.body?.data ?? {}) as { attemptsLeft?: number; retryAfterSeconds?: number };
  const wait = error.retryAfterSeconds ?? data.retryAfterSeconds ?? 60;
  switch (error.code) {
    case 'OTP_WRONG':
      return { kind: 'wrongCode', attemptsLeft: data.attemptsLeft ?? 0 };
    case 'OTP_BURNT':
      return { kind: 'burnt' };
    case 'OTP_EXPIRED':
      return { kind: 'expired' };
    case 'OTP_LOCKED':
      return { kind: 'locked', retryAfterSeconds: wait };
    case 'OTP_RESEND_TOO_SOON':
    case 'OTP_RATE_LIMITED':
      return { kind: 'rateLimited', retryAfterSeconds: wait };
    default:
      if (error.status === 429) return { kind: 'rateLimited', retryAfterSeconds: wait };
      if (error.status === 400 || error.status === 422) return { kind: 'invalid', message: error.message };
      return { kind: 'network' };
  }
}

/** An Error that carries the machine's typed OtpError fields (the machine reads `kind` and the rest). */
export function otpFailure(error: unknown): Error {
  const detail = toOtpError(error);
  return Object.assign(new Error(detail.kind), detail);
}

/**
 * The login machine's actors over an API pair `<base>/send` and `<base>/verify`: Find my case
 * (`auth/otp`) or resuming a saved application (`drafts/resume`, whose verify answer carries the form
 * and step as well). Errors are shown by the screen, not as toasts.
 */
export function otpActorsFor(base: 'auth/otp' | 'drafts/resume') {
  return {
    sendCode: fromPromise<SendCodeOutput, SendCodeInput>(async ({ input }) => {
      try {
        return (
          await api.post<SendCodeOutput>(`${base}/send`, { ...input, lang: currentLang() }, { quiet: true })
        ).data;
      } catch (e) {
        throw otpFailure(e);
      }
    }),
    verifyCode: fromPromise<LoginSession, VerifyCodeInput>(async ({ input }) => {
      try {
        return (
          await api.post<LoginSession>(`${base}/verify`, { ...input, lang: currentLang() }, { quiet: true })
        ).data;
      } catch (e) {
        throw otpFailure(e);
      }
    }),
  };
}

export const otpActors = otpActorsFor('auth/otp');

function currentLang(): string {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}
