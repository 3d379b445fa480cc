import { assign, fromPromise, setup } from 'xstate';
import {
  APPLICATION_NO_PATTERN,
  normaliseApplicationNo,
  OTP_LENGTH,
  OTP_PATTERN,
  type OtpSentData,
  normaliseDigits,
  parseContact,
  RESEND_AFTER_SECONDS,
} from '../rules/otp';

/**
 * "Find my case" login: application number + contact, a 6-digit one-time code, then a session (spec §4, §9).
 * Framework-free: the screen sends events and renders the state; the API calls are the actors `sendCode` and
 * `verifyCode`, which the UI supplies with `loginOtpMachine.provide({ actors })`. Time comes from `input.now`.
 * The rules (formats, limits) are machines/rules/otp.ts, shared with the API. Diagram: docs/flows/login.md.
 */
export { OTP_LENGTH, RESEND_AFTER_SECONDS };
export const LOGIN_ROUTE = '/find-my-case';
export const COUNTDOWN_TICK_MS = 1000;

export const isApplicationNoValid = (value: string) =>
  APPLICATION_NO_PATTERN.test(normaliseApplicationNo(value));
export const isContactValid = (value: string) => parseContact(value) !== undefined;
export const isCodeValid = (value: string) => OTP_PATTERN.test(value);

/** What the actors reject with (the UI maps HTTP answers to these). */
export type OtpError =
  | { kind: 'wrongCode'; attemptsLeft: number }
  | { kind: 'expired' }
  | { kind: 'burnt' }
  | { kind: 'locked'; retryAfterSeconds: number }
  | { kind: 'rateLimited'; retryAfterSeconds: number }
  | { kind: 'network' }
  | { kind: 'invalid'; message: string };

export interface SendCodeInput {
  applicationNo: string;
  contact: string;
}
/** POST /api/auth/otp/send → { resendAfterSeconds, expiresInSeconds } */
export type SendCodeOutput = OtpSentData;
export interface VerifyCodeInput extends SendCodeInput {
  code: string;
}
/** POST /api/auth/otp/verify: the session, also the machine's output. */
export interface LoginSession {
  token: string;
  applicationNo: string;
  role: string;
  userId: string;
  idleTimeoutMinutes: number;
  /** The role's authorised routes and buttons (spec §3 client session state; machines/rules/grants.ts). */
  authRoutes?: string[];
  authButtons?: string[];
}

/** An `Error` carrying an OtpError's fields, for actors to reject with: `throw otpFailure({ kind: 'burnt' })`. */
export const otpFailure = (error: OtpError): Error & OtpError =>
  Object.assign(new Error(error.kind === 'invalid' ? error.message : error.kind), error);

const positive = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.ceil(v) : 1);

/** Anything that is not a well-formed OtpError (a thrown TypeError, a time-out) counts as a network failure. */
export function toOtpError(error: unknown): OtpError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  switch (e.kind) {
    case 'wrongCode':
      return { kind: 'wrongCode', attemptsLeft: typeof e.attemptsLeft === 'number' ? e.attemptsLeft : 0 };
    case 'expired':
    case 'burnt':
      return { kind: e.kind };
    case 'locked':
    case 'rateLimited':
      return { kind: e.kind, retryAfterSeconds: positive(e.retryAfterSeconds) };
    case 'invalid':
      return { kind: 'invalid', message: typeof e.message === 'string' ? e.message : '' };
    default:
      return { kind: 'network' };
  }
}

export interface LoginOtpInput {
  /** The clock (ms epoch); required so that no wall clock hides in the machine. */
  now: () => number;
  applicationNo?: string;
  contact?: string;
}

export type RequestFrom = 'enterDetails' | 'codeSent';

export interface LoginOtpContext {
  now: () => number;
  applicationNo: string;
  contact: string;
  code: string;
  /** Set when a send was refused or a code submitted incomplete: the screen shows its field errors. */
  showErrors: boolean;
  /** ms epoch when `otp.resend` becomes possible, and the whole seconds until then (the visible countdown). */
  resendAvailableAt: number;
  secondsLeft: number;
  codeExpiresAt: number | null;
  attemptsLeft: number | null;
  /** `locked` and `rateLimited`: the wait, and the ms epoch it ends. */
  retryAfterSeconds: number;
  retryAt: number | null;
  /** The request in flight or last failed (what `otp.retry` repeats) and the screen it was made from. */
  pendingRequest: 'send' | 'verify';
  requestFrom: RequestFrom;
  error: OtpError | null;
  session: LoginSession | null;
}

export type LoginOtpEvent =
  | { type: 'details.change'; applicationNo?: string; contact?: string }
  | { type: 'otp.send' }
  | { type: 'code.change'; code: string }
  | { type: 'otp.submit' }
  | { type: 'otp.resend' }
  | { type: 'details.edit' }
  | { type: 'otp.retry' };

/** The error of an `xstate.error.actor.*` event (the declared event union does not list those). */
const errorOf = (event: object): OtpError => toOtpError('error' in event ? event.error : undefined);
const errorKind = ({ event }: { event: object }) => errorOf(event).kind;
/** The default actors: the UI and the tests provide real ones. */
const notProvided = () => Promise.reject(otpFailure({ kind: 'network' }));
const TITLE_KEY = 'auth:findMyCase.title';
const screen = (messageKey?: string) => ({ route: LOGIN_ROUTE, titleKey: TITLE_KEY, messageKey });
/** The context besides the clock and the details, as at the start. */
const CLEAN: Omit<LoginOtpContext, 'now' | 'applicationNo' | 'contact'> = {
  code: '',
  showErrors: false,
  resendAvailableAt: 0,
  secondsLeft: 0,
  codeExpiresAt: null,
  attemptsLeft: null,
  retryAfterSeconds: 0,
  retryAt: null,
  pendingRequest: 'send',
  requestFrom: 'enterDetails',
  error: null,
  session: null,
};
const request = (kind: 'send' | 'verify', from: RequestFrom) =>
  ({ type: 'rememberRequest', params: { request: kind, from } }) as const;

export const loginOtpMachine = setup({
  types: {
    context: {} as LoginOtpContext,
    events: {} as LoginOtpEvent,
    input: {} as LoginOtpInput,
    output: {} as LoginSession,
  },
  actors: {
    sendCode: fromPromise<SendCodeOutput, SendCodeInput>(notProvided),
    verifyCode: fromPromise<LoginSession, VerifyCodeInput>(notProvided),
  },
  delays: {
    countdownTick: COUNTDOWN_TICK_MS,
    retryWait: ({ context }) => context.retryAfterSeconds * 1000,
  },
  guards: {
    hasValidDetails: ({ context }) =>
      isApplicationNoValid(context.applicationNo) && isContactValid(context.contact),
    isCodeComplete: ({ context }) => isCodeValid(context.code),
    isResendDue: ({ context }) => context.secondsLeft <= 0,
    isWrongCode: (args) => errorKind(args) === 'wrongCode',
    isCodeExpired: (args) => errorKind(args) === 'expired',
    isCodeBurnt: (args) => errorKind(args) === 'burnt',
    isLocked: (args) => errorKind(args) === 'locked',
    isRateLimited: (args) => errorKind(args) === 'rateLimited',
    isNetworkError: (args) => errorKind(args) === 'network',
    isVerifyPending: ({ context }) => context.pendingRequest === 'verify',
    isFromCodeSent: ({ context }) => context.requestFrom === 'codeSent',
  },
  actions: {
    assignDetails: assign(({ context: c, event: e }) =>
      e.type === 'details.change'
        ? { applicationNo: e.applicationNo ?? c.applicationNo, contact: e.contact ?? c.contact }
        : {},
    ),
    assignCode: assign({
      code: ({ event }) =>
        event.type === 'code.change'
          ? normaliseDigits(event.code).replace(/\D/g, '').slice(0, OTP_LENGTH)
          : '',
    }),
    clearCode: assign({ code: '' }),
    revealErrors: assign({ showErrors: true }),
    rememberRequest: assign((_, params: { request: 'send' | 'verify'; from: RequestFrom }) => ({
      pendingRequest: params.request,
      requestFrom: params.from,
      showErrors: false,
      error: null,
    })),
    assignCodeSent: assign(({ context, event }) => {
      const out = (event as { output?: Partial<SendCodeOutput> }).output ?? {};
      const wait =
        typeof out.resendAfterSeconds === 'number'
          ? Math.max(0, Math.ceil(out.resendAfterSeconds))
          : RESEND_AFTER_SECONDS;
      const now = context.now();
      return {
        resendAvailableAt: now + wait * 1000,
        secondsLeft: wait,
        codeExpiresAt: typeof out.expiresInSeconds === 'number' ? now + out.expiresInSeconds * 1000 : null,
        attemptsLeft: null,
        code: '',
        error: null,
      };
    }),
    /** Never slower than one second per tick, faster when the clock says more time passed (a throttled tab). */
    countDown: assign({
      secondsLeft: ({ context }) =>
        Math.max(
          0,
          Math.min(context.secondsLeft - 1, Math.ceil((context.resendAvailableAt - context.now()) / 1000)),
        ),
    }),
    assignError: assign(({ context, event }) => {
      const error = errorOf(event);
      const wait = error.kind === 'locked' || error.kind === 'rateLimited' ? error.retryAfterSeconds : 0;
      return {
        error,
        attemptsLeft: error.kind === 'wrongCode' ? error.attemptsLeft : context.attemptsLeft,
        retryAfterSeconds: wait,
        retryAt: wait > 0 ? context.now() + wait * 1000 : null,
      };
    }),
    clearError: assign({ error: null, retryAt: null }),
    assignSession: assign({ session: ({ event }) => (event as { output?: LoginSession }).output ?? null }),
  },
}).createMachine({
  id: 'loginOtp',
  context: ({ input }) => ({
    now: input.now,
    applicationNo: input.applicationNo ?? '',
    contact: input.contact ?? '',
    ...CLEAN,
  }),
  initial: 'enterDetails',
  output: ({ context }) => context.session as LoginSession,
  states: {
    enterDetails: {
      meta: screen(),
      on: {
        'details.change': { actions: ['assignDetails', 'clearError'] },
        'otp.send': [
          { guard: 'hasValidDetails', target: 'sending', actions: request('send', 'enterDetails') },
          { actions: 'revealErrors' },
        ],
      },
    },
    sending: {
      meta: { ...screen(), busy: true },
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context: c }) => ({ applicationNo: c.applicationNo.trim(), contact: c.contact.trim() }),
        onDone: { target: 'codeSent', actions: 'assignCodeSent' },
        onError: [
          { guard: 'isRateLimited', target: 'rateLimited', actions: 'assignError' },
          { guard: 'isLocked', target: 'locked', actions: 'assignError' },
          { guard: 'isNetworkError', target: 'networkError', actions: 'assignError' },
          { guard: 'isFromCodeSent', target: 'codeSent', actions: 'assignError' },
          { target: 'enterDetails', actions: 'assignError' },
        ],
      },
    },
    codeSent: {
      meta: screen(),
      type: 'parallel',
      on: { 'details.edit': { target: 'enterDetails', actions: ['clearCode', 'clearError'] } },
      states: {
        resend: {
          initial: 'waiting',
          states: {
            waiting: {
              always: { guard: 'isResendDue', target: 'resendable' },
              after: { countdownTick: { target: 'waiting', reenter: true, actions: 'countDown' } },
            },
            resendable: {
              on: {
                'otp.resend': { target: '#loginOtp.sending', actions: request('send', 'codeSent') },
              },
            },
          },
        },
        code: {
          initial: 'entering',
          states: {
            entering: {
              on: {
                'code.change': { actions: 'assignCode' },
                'otp.submit': [{ guard: 'isCodeComplete', target: 'verifying' }, { actions: 'revealErrors' }],
              },
            },
            verifying: {
              meta: { busy: true },
              entry: request('verify', 'codeSent'),
              invoke: {
                id: 'verifyCode',
                src: 'verifyCode',
                input: ({ context: c }) => ({
                  applicationNo: c.applicationNo.trim(),
                  contact: c.contact.trim(),
                  code: c.code,
                }),
                onDone: { target: '#loginOtp.loggedIn', actions: 'assignSession' },
                onError: [
                  { guard: 'isWrongCode', target: 'wrongCode', actions: ['assignError', 'clearCode'] },
                  { guard: 'isCodeExpired', target: 'codeExpired', actions: ['assignError', 'clearCode'] },
                  { guard: 'isCodeBurnt', target: 'codeBurnt', actions: ['assignError', 'clearCode'] },
                  { guard: 'isLocked', target: '#loginOtp.locked', actions: ['assignError', 'clearCode'] },
                  { guard: 'isRateLimited', target: '#loginOtp.rateLimited', actions: 'assignError' },
                  { guard: 'isNetworkError', target: '#loginOtp.networkError', actions: 'assignError' },
                  { target: 'entering', actions: 'assignError' },
                ],
              },
            },
            wrongCode: {
              meta: { messageKey: 'auth:findMyCase.errors.wrongCode' },
              on: {
                'code.change': { actions: 'assignCode' },
                'otp.submit': [{ guard: 'isCodeComplete', target: 'verifying' }, { actions: 'revealErrors' }],
              },
            },
            codeExpired: { meta: { messageKey: 'auth:findMyCase.errors.expired' } },
            codeBurnt: { meta: { messageKey: 'auth:findMyCase.errors.burnt' } },
          },
        },
      },
    },
    locked: {
      meta: screen('auth:findMyCase.errors.locked'),
      after: { retryWait: { target: 'enterDetails', actions: 'clearError' } },
    },
    rateLimited: {
      meta: screen('auth:findMyCase.errors.rateLimited'),
      after: {
        retryWait: [
          { guard: 'isFromCodeSent', target: 'codeSent', actions: 'clearError' },
          { target: 'enterDetails', actions: 'clearError' },
        ],
      },
    },
    networkError: {
      meta: screen('auth:findMyCase.errors.network'),
      on: {
        'otp.retry': [
          { guard: 'isVerifyPending', target: '#loginOtp.codeSent.code.verifying' },
          { target: 'sending', actions: 'clearError' },
        ],
        'details.edit': { target: 'enterDetails', actions: ['clearCode', 'clearError'] },
      },
    },
    loggedIn: { type: 'final' },
  },
});
