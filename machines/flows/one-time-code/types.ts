import { OTP_PATTERN, type OtpSentData } from '../../rules/otp';

/**
 * The types of the one-time code step (machines/flows/one-time-code.machine.ts): its input, options, context,
 * events and output, the error its actors reject with, and the helpers its parents and screens share.
 */

export const COUNTDOWN_TICK_MS = 1000;

export const isCodeValid = (value: string) => OTP_PATTERN.test(value);

/**
 * What the actors reject with (the UI maps HTTP answers to these). `message`: the words the rejection carried,
 * shown by the screens that show the API's own words.
 */
export type OtpError = (
  | { kind: 'wrongCode'; attemptsLeft: number }
  | { kind: 'expired' }
  | { kind: 'burnt' }
  | { kind: 'locked'; retryAfterSeconds: number }
  | { kind: 'rateLimited'; retryAfterSeconds: number }
  | { kind: 'network' }
  | { kind: 'invalid'; message: string }
) & { message?: string };

/**
 * The details the code goes to, as the parent gives them (an application number and contact, a registration
 * number and contact, an invitation's token and channel): passed to `sendCode` as they are, and to
 * `verifyCode` with the code.
 */
export type CodeRequest = Readonly<Record<string, string>>;
export type SendCodeInput = CodeRequest;
/** What a send answers: `{ resendAfterSeconds, expiresInSeconds }`. */
export type SendCodeOutput = OtpSentData;
export type VerifyCodeInput = CodeRequest & { code: string };
/** What a verify answers: the flow's own (a session for a login), handed to the parent in the output. */
export type VerifyCodeOutput = unknown;

/** How a flow wants its code step; each option is read by one guard or action. */
export interface OneTimeCodeOptions {
  /** Resend only when the send's `resendAfterSeconds` have passed (a countdown); else at any time. */
  resendCountdown: boolean;
  /**
   * A state for each failure (wrong code, expired, burnt, locked, rate limited, network error); else every
   * failure is reported where it happened: a verify's beside the code, a send's back on the parent's details.
   */
  failureStates: boolean;
  /** Keep only digits, at most `OTP_LENGTH` (full-width ones folded); else the code as the screen sends it. */
  digitsOnly: boolean;
}

export interface OneTimeCodeInput {
  /** The clock (ms epoch); required so that no wall clock hides in the machine. */
  now: () => number;
  request: CodeRequest;
  options: OneTimeCodeOptions;
}

/**
 * How the step ended: `verified` with `verifyCode`'s answer; `back` to the details (the person asked, or a
 * lock or rate limit on the first send ran out); `refused`: the first send was refused, and the details screen
 * says why.
 */
export type OneTimeCodeOutput =
  | { result: 'verified'; answer: VerifyCodeOutput }
  | { result: 'back' }
  | { result: 'refused'; error: OtpError };

/** Whether the request in flight (or last failed) was made from the details or from the code step. */
export type RequestFrom = 'details' | 'codeSent';

export interface OneTimeCodeContext extends OneTimeCodeInput {
  code: string;
  /** Set when a code was submitted incomplete: the screen shows the code's error. */
  showErrors: boolean;
  /** ms epoch when a resend becomes possible, and the whole seconds until then (the visible countdown). */
  resendAvailableAt: number;
  secondsLeft: number;
  codeExpiresAt: number | null;
  attemptsLeft: number | null;
  /** `locked` and `rateLimited`: the wait, and the ms epoch it ends. */
  retryAfterSeconds: number;
  retryAt: number | null;
  /** The request in flight or last failed (what `otp.retry` repeats) and where it was made from. */
  pendingRequest: 'send' | 'verify';
  requestFrom: RequestFrom;
  error: OtpError | null;
  answer: VerifyCodeOutput;
}

/** `otp.send` in the code step is a resend too: the AP/RSE screens' Resend button sends it. */
export type OneTimeCodeEvent =
  | { type: 'code.change'; code: string }
  | { type: 'otp.submit' }
  | { type: 'otp.resend' }
  | { type: 'otp.send' }
  | { type: 'details.edit' }
  | { type: 'otp.retry' };

/** What the screen shows: each state's `meta.screen` (`verifying` is the code screen, busy). */
export type OneTimeCodeScreen =
  'sending' | 'codeSent' | 'verifying' | 'locked' | 'rateLimited' | 'networkError';
export interface OneTimeCodeMeta {
  screen: OneTimeCodeScreen;
  /** A request in flight. */
  busy?: boolean;
}

/** An `Error` carrying an OtpError's fields, for actors to reject with: `throw otpFailure({ kind: 'burnt' })`. */
export const otpFailure = (error: OtpError): Error & OtpError =>
  Object.assign(new Error(error.message ?? error.kind), error);

const positive = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.ceil(v) : 1);

/**
 * A rejection as an OtpError. A typed rejection keeps its message as it came (an `Error`'s own included: the
 * acceptance screen shows it); one of another kind that gives its reason is `invalid`; anything else (a thrown
 * TypeError, a time-out) counts as a network failure.
 */
export function toOtpError(error: unknown): OtpError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const message = typeof e.kind === 'string' && typeof e.message === 'string' ? e.message : undefined;
  const words = message === undefined ? {} : { message };
  switch (e.kind) {
    case 'wrongCode':
      return {
        kind: 'wrongCode',
        attemptsLeft: typeof e.attemptsLeft === 'number' ? e.attemptsLeft : 0,
        ...words,
      };
    case 'expired':
    case 'burnt':
    case 'network':
      return { kind: e.kind, ...words };
    case 'locked':
    case 'rateLimited':
      return { kind: e.kind, retryAfterSeconds: positive(e.retryAfterSeconds), ...words };
    case 'invalid':
      return { kind: 'invalid', message: message ?? '' };
    default:
      return message ? { kind: 'invalid', message } : { kind: 'network' };
  }
}

/** The step a snapshot of the child shows: its deepest active state's `meta.screen`. */
export function stepOfOneTimeCode(snapshot: { getMeta: () => Record<string, unknown> }): OneTimeCodeScreen {
  const metas = Object.values(snapshot.getMeta()) as Partial<OneTimeCodeMeta>[];
  return metas.findLast((m) => m.screen !== undefined)?.screen ?? 'codeSent';
}

/** Guards for the parent's `onDone`, given the child's output as params. */
export const isCodeVerified = (_: unknown, output: OneTimeCodeOutput) => output.result === 'verified';
export const isSendRefused = (_: unknown, output: OneTimeCodeOutput) => output.result === 'refused';
