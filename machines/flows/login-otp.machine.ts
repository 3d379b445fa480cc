import { assign, setup } from 'xstate';
import { APPLICATION_NO_PATTERN, normaliseApplicationNo, parseContact } from '../rules/otp';
import { oneTimeCodeMachine } from './one-time-code.machine';
import {
  isCodeVerified,
  isSendRefused,
  type OneTimeCodeOptions,
  type OneTimeCodeOutput,
  type OtpError,
} from './one-time-code/types';

/**
 * "Find my case" login: application number + contact, a 6-digit one-time code, then a session (spec §4, §9).
 * Framework-free: the screen sends events and renders the state. The code step is the one-time code machine
 * (one-time-code.machine.ts), invoked as the child `oneTimeCode` with the details; its API calls are the
 * actors `sendCode` and `verifyCode`, which the UI supplies with `loginOtpMachine.provide({ actors: {
 * oneTimeCode: oneTimeCodeMachine.provide({ actors }) } })`. Time comes from `input.now`. The rules (formats,
 * limits) are machines/rules/otp.ts, shared with the API. Diagram: docs/flows/login.md.
 */
export const LOGIN_ROUTE = '/find-my-case';

/** Find my case's code step: a resend countdown, a state for each failure, digits only (spec §4, §9). */
export const FIND_MY_CASE_CODE: OneTimeCodeOptions = {
  resendCountdown: true,
  failureStates: true,
  digitsOnly: true,
};

export const isApplicationNoValid = (value: string) =>
  APPLICATION_NO_PATTERN.test(normaliseApplicationNo(value));
export const isContactValid = (value: string) => parseContact(value) !== undefined;

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

export interface LoginOtpInput {
  /** The clock (ms epoch); required so that no wall clock hides in the machine. */
  now: () => number;
  applicationNo?: string;
  contact?: string;
}

export interface LoginOtpContext {
  now: () => number;
  applicationNo: string;
  contact: string;
  /** Set when a send was asked for with details that are not valid: the screen shows their field errors. */
  showErrors: boolean;
  /** Why the first send was refused (the code step's own errors are the child's). */
  error: OtpError | null;
  session: LoginSession | null;
}

export type LoginOtpEvent =
  { type: 'details.change'; applicationNo?: string; contact?: string } | { type: 'otp.send' };

const TITLE_KEY = 'auth:findMyCase.title';
const screen = () => ({ route: LOGIN_ROUTE, titleKey: TITLE_KEY });

export const loginOtpMachine = setup({
  types: {
    context: {} as LoginOtpContext,
    events: {} as LoginOtpEvent,
    input: {} as LoginOtpInput,
    output: {} as LoginSession,
  },
  actors: { oneTimeCode: oneTimeCodeMachine },
  guards: {
    hasValidDetails: ({ context }) =>
      isApplicationNoValid(context.applicationNo) && isContactValid(context.contact),
    isCodeVerified,
    isSendRefused,
  },
  actions: {
    assignDetails: assign(({ context: c, event: e }) =>
      e.type === 'details.change'
        ? { applicationNo: e.applicationNo ?? c.applicationNo, contact: e.contact ?? c.contact }
        : {},
    ),
    revealErrors: assign({ showErrors: true }),
    clearErrors: assign({ showErrors: false, error: null }),
    clearError: assign({ error: null }),
    // The verifyCode the UI provides for this flow answers with the session.
    assignSession: assign((_, output: OneTimeCodeOutput) => ({
      session: output.result === 'verified' ? (output.answer as LoginSession) : null,
    })),
    assignRefusal: assign((_, output: OneTimeCodeOutput) => ({
      error: output.result === 'refused' ? output.error : null,
    })),
  },
}).createMachine({
  id: 'loginOtp',
  context: ({ input }) => ({
    now: input.now,
    applicationNo: input.applicationNo ?? '',
    contact: input.contact ?? '',
    showErrors: false,
    error: null,
    session: null,
  }),
  initial: 'enterDetails',
  output: ({ context }) => context.session as LoginSession,
  states: {
    enterDetails: {
      meta: screen(),
      on: {
        'details.change': { actions: ['assignDetails', 'clearError'] },
        'otp.send': [
          { guard: 'hasValidDetails', target: 'code', actions: 'clearErrors' },
          { actions: 'revealErrors' },
        ],
      },
    },
    // The code step: the child sends the code, verifies it, and answers every failure.
    code: {
      meta: screen(),
      invoke: {
        id: 'oneTimeCode',
        src: 'oneTimeCode',
        input: ({ context: c }) => ({
          now: c.now,
          request: { applicationNo: c.applicationNo.trim(), contact: c.contact.trim() },
          options: FIND_MY_CASE_CODE,
        }),
        onDone: [
          {
            guard: { type: 'isCodeVerified', params: ({ event }) => event.output },
            target: 'loggedIn',
            actions: { type: 'assignSession', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isSendRefused', params: ({ event }) => event.output },
            target: 'enterDetails',
            actions: { type: 'assignRefusal', params: ({ event }) => event.output },
          },
          { target: 'enterDetails' },
        ],
      },
    },
    loggedIn: { type: 'final' },
  },
});
