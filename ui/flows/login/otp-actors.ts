import i18next from 'i18next';
import { fromPromise, type PromiseActorLogic } from 'xstate';
import { isLanguage } from '../../../machines/rules/language';
import { loginOtpMachine } from '../../../machines/flows/login-otp.machine';
import { oneTimeCodeMachine } from '../../../machines/flows/one-time-code.machine';
import {
  type OtpError,
  type SendCodeInput,
  type SendCodeOutput,
  type VerifyCodeInput,
  type VerifyCodeOutput,
} from '../../../machines/flows/one-time-code/types';
import { api, ApiError } from '../../api';

/** An API failure as the one-time code machine's typed error. */
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

/** The one-time code actors, `sendCode` and `verifyCode`, as a flow's UI provides them. */
export interface CodeActors {
  sendCode: PromiseActorLogic<SendCodeOutput, SendCodeInput>;
  verifyCode: PromiseActorLogic<VerifyCodeOutput, VerifyCodeInput>;
}

/**
 * The one-time code machine's actors over an API pair `<base>/send` and `<base>/verify`: Find my case
 * (`auth/otp`) or resuming a saved application (`drafts/resume`, whose verify answer carries the form
 * and step as well). Errors are shown by the screen, not as toasts.
 */
export function otpActorsFor(base: 'auth/otp' | 'drafts/resume'): CodeActors {
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
    verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(async ({ input }) => {
      try {
        return (await api.post(`${base}/verify`, { ...input, lang: currentLang() }, { quiet: true })).data;
      } catch (e) {
        throw otpFailure(e);
      }
    }),
  };
}

export const otpActors = otpActorsFor('auth/otp');

/** The login machine with its code step's actors: what a page hands to `OtpLoginForm`. */
export const loginWith = (actors: CodeActors) =>
  loginOtpMachine.provide({ actors: { oneTimeCode: oneTimeCodeMachine.provide({ actors }) } });

function currentLang(): string {
  return isLanguage(i18next.language) ? i18next.language : 'en';
}
