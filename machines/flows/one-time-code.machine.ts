import { assign, fromPromise, setup } from 'xstate';
import { normaliseDigits, OTP_LENGTH, RESEND_AFTER_SECONDS } from '../rules/otp';
import {
  COUNTDOWN_TICK_MS,
  isCodeValid,
  type OneTimeCodeContext,
  type OneTimeCodeEvent,
  type OneTimeCodeInput,
  type OneTimeCodeMeta,
  type OneTimeCodeOutput,
  type OtpError,
  otpFailure,
  type RequestFrom,
  type SendCodeInput,
  type SendCodeOutput,
  toOtpError,
  type VerifyCodeInput,
  type VerifyCodeOutput,
} from './one-time-code/types';

/**
 * The one-time code step, written once and invoked as the child `oneTimeCode` by every flow that confirms a
 * person with a code sent to their email or mobile: Find my case (login-otp.machine.ts, which also resumes a
 * draft and confirms a contact), the AP/RSE login (appointee-login.machine.ts) and the acceptance of an
 * appointment (appointment-acceptance.machine.ts). The parent keeps the screen where the person gives the
 * details (and its `meta.route`); the child sends the code, takes the code typed, verifies it, resends, and
 * meets wrong, expired and burnt codes, locks, rate limits and network errors. Its output tells the parent how
 * it ended. Pure: the API calls are the actors `sendCode` and `verifyCode`, which the UI supplies with
 * `oneTimeCodeMachine.provide({ actors })` inside the parent's own `provide`; time comes from `input.now`.
 * Its types and shared helpers: one-time-code/types.ts. Diagram and options: docs/flows/one-time-code.md.
 */

/** The error of an `xstate.error.actor.*` event (the declared event union does not list those). */
const errorOf = (event: object): OtpError => toOtpError('error' in event ? event.error : undefined);
const errorKind = ({ event }: { event: object }) => errorOf(event).kind;
/** The default actors: the UI and the tests provide real ones. */
const notProvided = () => Promise.reject(otpFailure({ kind: 'network' }));
const request = (kind: 'send' | 'verify', from: RequestFrom) =>
  ({ type: 'rememberRequest', params: { request: kind, from } }) as const;
const resend = { target: '#oneTimeCode.sending', actions: request('send', 'codeSent') } as const;
const enterCode = {
  'code.change': { actions: 'assignCode' },
  'otp.submit': [{ guard: 'isCodeComplete', target: 'verifying' }, { actions: 'revealErrors' }],
} as const;

export const oneTimeCodeMachine = setup({
  types: {
    context: {} as OneTimeCodeContext,
    events: {} as OneTimeCodeEvent,
    input: {} as OneTimeCodeInput,
    output: {} as OneTimeCodeOutput,
    meta: {} as OneTimeCodeMeta,
  },
  actors: {
    sendCode: fromPromise<SendCodeOutput, SendCodeInput>(notProvided),
    verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(notProvided),
  },
  delays: {
    countdownTick: COUNTDOWN_TICK_MS,
    retryWait: ({ context }) => context.retryAfterSeconds * 1000,
  },
  guards: {
    isCodeComplete: ({ context }) => isCodeValid(context.code),
    isResendDue: ({ context }) => context.secondsLeft <= 0,
    reportsFailuresInPlace: ({ context }) => !context.options.failureStates,
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
    assignCode: assign({
      code: ({ context, event }) => {
        if (event.type !== 'code.change') return context.code;
        return context.options.digitsOnly
          ? normaliseDigits(event.code).replace(/\D/g, '').slice(0, OTP_LENGTH)
          : event.code;
      },
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
      const wait = !context.options.resendCountdown
        ? 0
        : typeof out.resendAfterSeconds === 'number'
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
    assignAnswer: assign({ answer: ({ event }) => (event as { output?: unknown }).output }),
  },
}).createMachine({
  id: 'oneTimeCode',
  context: ({ input }) => ({
    ...input,
    code: '',
    showErrors: false,
    resendAvailableAt: 0,
    secondsLeft: 0,
    codeExpiresAt: null,
    attemptsLeft: null,
    retryAfterSeconds: 0,
    retryAt: null,
    pendingRequest: 'send',
    requestFrom: 'details',
    error: null,
    answer: null,
  }),
  initial: 'sending',
  // The final state's own output (below): the done-state event carries it.
  output: ({ event }) => event.output as OneTimeCodeOutput,
  states: {
    sending: {
      meta: { screen: 'sending', busy: true },
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => context.request,
        onDone: { target: 'codeSent', actions: 'assignCodeSent' },
        onError: [
          { guard: 'reportsFailuresInPlace', target: 'refused', actions: 'assignError' },
          { guard: 'isRateLimited', target: 'rateLimited', actions: 'assignError' },
          { guard: 'isLocked', target: 'locked', actions: 'assignError' },
          { guard: 'isNetworkError', target: 'networkError', actions: 'assignError' },
          { guard: 'isFromCodeSent', target: 'codeSent', actions: 'assignError' },
          { target: 'refused', actions: 'assignError' },
        ],
      },
    },
    codeSent: {
      meta: { screen: 'codeSent' },
      type: 'parallel',
      on: { 'details.edit': 'back' },
      states: {
        resend: {
          initial: 'waiting',
          states: {
            waiting: {
              always: { guard: 'isResendDue', target: 'resendable' },
              after: { countdownTick: { target: 'waiting', reenter: true, actions: 'countDown' } },
            },
            resendable: { on: { 'otp.resend': resend, 'otp.send': resend } },
          },
        },
        code: {
          initial: 'entering',
          states: {
            entering: { on: enterCode },
            verifying: {
              meta: { screen: 'verifying', busy: true },
              entry: request('verify', 'codeSent'),
              invoke: {
                id: 'verifyCode',
                src: 'verifyCode',
                input: ({ context }) => ({ ...context.request, code: context.code }),
                onDone: { target: '#oneTimeCode.verified', actions: 'assignAnswer' },
                onError: [
                  { guard: 'reportsFailuresInPlace', target: 'entering', actions: 'assignError' },
                  { guard: 'isWrongCode', target: 'wrongCode', actions: ['assignError', 'clearCode'] },
                  { guard: 'isCodeExpired', target: 'codeExpired', actions: ['assignError', 'clearCode'] },
                  { guard: 'isCodeBurnt', target: 'codeBurnt', actions: ['assignError', 'clearCode'] },
                  { guard: 'isLocked', target: '#oneTimeCode.locked', actions: ['assignError', 'clearCode'] },
                  { guard: 'isRateLimited', target: '#oneTimeCode.rateLimited', actions: 'assignError' },
                  { guard: 'isNetworkError', target: '#oneTimeCode.networkError', actions: 'assignError' },
                  { target: 'entering', actions: 'assignError' },
                ],
              },
            },
            wrongCode: { on: enterCode },
            // A new code is needed: only a resend (or going back) leaves these.
            codeExpired: {},
            codeBurnt: {},
          },
        },
      },
    },
    locked: {
      meta: { screen: 'locked' },
      after: { retryWait: 'back' },
    },
    rateLimited: {
      meta: { screen: 'rateLimited' },
      after: {
        retryWait: [
          { guard: 'isFromCodeSent', target: 'codeSent', actions: 'clearError' },
          { target: 'back' },
        ],
      },
    },
    networkError: {
      meta: { screen: 'networkError' },
      on: {
        'otp.retry': [
          { guard: 'isVerifyPending', target: '#oneTimeCode.codeSent.code.verifying' },
          { target: 'sending', actions: 'clearError' },
        ],
        'details.edit': 'back',
      },
    },
    verified: { type: 'final', output: ({ context }) => ({ result: 'verified', answer: context.answer }) },
    back: { type: 'final', output: { result: 'back' } },
    refused: {
      type: 'final',
      output: ({ context }) => ({ result: 'refused', error: context.error ?? { kind: 'network' } }),
    },
  },
});
