import { assign, fromPromise, setup } from 'xstate';
import type { AppointeeCase } from '../rules/appointment';
import { parseContact } from '../rules/otp';
import { parseRegistrationNumber } from '../rules/registration';
import type { LoginSession } from './login-otp.machine';
import { oneTimeCodeMachine } from './one-time-code.machine';
import {
  isCodeVerified,
  isSendRefused,
  type OneTimeCodeOptions,
  type OneTimeCodeOutput,
} from './one-time-code/types';

/**
 * The AP/RSE login (docs/decisions/020-appointments.md; route `/appointee-login`, docs/flows/appointee-login.md): registration number
 * and the email or mobile of an accepted appointment, a one-time password (the one-time code machine, invoked
 * as the child `oneTimeCode`), then the cases they are appointed to; choosing one moves the session there (the
 * newest is the session's case at first). Pure: the API calls are actors the UI provides; the UI stores the
 * session (role, authorised routes and buttons).
 */

export interface AppointeeFailure {
  kind: 'wrongCode' | 'expired' | 'burnt' | 'locked' | 'rateLimited' | 'network' | 'invalid';
  message?: string;
}

export type AppointeeSession = LoginSession & {
  authRoutes?: string[];
  authButtons?: string[];
  cases: AppointeeCase[];
};

/** The appointee's code step: resend at any time, every failure shown where it happened, the code as typed. */
export const APPOINTEE_CODE: OneTimeCodeOptions = {
  resendCountdown: false,
  failureStates: false,
  digitsOnly: false,
};

export interface AppointeeLoginInput {
  /** The clock (ms epoch) the code step runs on. */
  now: () => number;
}

interface Context extends AppointeeLoginInput {
  registrationNumber: string;
  contact: string;
  /** Set when a send was asked for with details that are not valid (the code's errors are the child's). */
  showErrors: boolean;
  failure: AppointeeFailure | null;
  session: AppointeeSession | null;
  chosen: string | null;
}

type Events =
  | { type: 'details.change'; registrationNumber?: string; contact?: string }
  | { type: 'otp.send' }
  | { type: 'case.choose'; applicationNo: string };

export const isRegistrationValid = (value: string) => parseRegistrationNumber(value) !== undefined;
export const isContactValid = (value: string) => parseContact(value.trim()) !== undefined;

const failureOf = (error: unknown): AppointeeFailure =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as AppointeeFailure)
    : { kind: 'network' };
const notProvided = () => Promise.reject(new Error('actor not provided'));

export const appointeeLoginMachine = setup({
  types: { context: {} as Context, events: {} as Events, input: {} as AppointeeLoginInput },
  actors: {
    oneTimeCode: oneTimeCodeMachine,
    selectCase: fromPromise<unknown, { applicationNo: string }>(notProvided),
  },
  guards: {
    hasValidDetails: ({ context }) =>
      isRegistrationValid(context.registrationNumber) && isContactValid(context.contact),
    isCodeVerified,
    isSendRefused,
    isCurrentCase: ({ context, event }) =>
      event.type === 'case.choose' && event.applicationNo === context.session?.applicationNo,
  },
  actions: {
    assignFailure: assign((_, failure: AppointeeFailure) => ({ failure })),
    clearFailure: assign({ failure: null, showErrors: false }),
    revealErrors: assign({ showErrors: true }),
    // The verifyCode the UI provides for this flow answers with the session and the cases.
    assignSession: assign((_, output: OneTimeCodeOutput) => ({
      session: output.result === 'verified' ? (output.answer as AppointeeSession) : null,
    })),
  },
}).createMachine({
  id: 'appointeeLogin',
  context: ({ input }) => ({
    now: input.now,
    registrationNumber: '',
    contact: '',
    showErrors: false,
    failure: null,
    session: null,
    chosen: null,
  }),
  initial: 'enterDetails',
  states: {
    enterDetails: {
      meta: { screen: 'enterDetails' },
      on: {
        'details.change': {
          actions: assign(({ context, event }) => ({
            registrationNumber: event.registrationNumber ?? context.registrationNumber,
            contact: event.contact ?? context.contact,
          })),
        },
        'otp.send': [
          { guard: 'hasValidDetails', target: 'code', actions: 'clearFailure' },
          { actions: 'revealErrors' },
        ],
      },
    },
    code: {
      meta: { screen: 'code' },
      invoke: {
        id: 'oneTimeCode',
        src: 'oneTimeCode',
        input: ({ context }) => ({
          now: context.now,
          request: { registrationNumber: context.registrationNumber, contact: context.contact },
          options: APPOINTEE_CODE,
        }),
        onDone: [
          {
            guard: { type: 'isCodeVerified', params: ({ event }) => event.output },
            target: 'chooseCase',
            actions: { type: 'assignSession', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isSendRefused', params: ({ event }) => event.output },
            target: 'enterDetails',
            actions: {
              type: 'assignFailure',
              params: ({ event }) => failureOf(event.output.result === 'refused' ? event.output.error : null),
            },
          },
          { target: 'enterDetails' },
        ],
      },
    },
    chooseCase: {
      meta: { screen: 'chooseCase' },
      on: {
        'case.choose': [
          {
            guard: 'isCurrentCase',
            target: 'done',
            actions: assign({ chosen: ({ event }) => event.applicationNo }),
          },
          {
            target: 'selecting',
            actions: [assign({ chosen: ({ event }) => event.applicationNo }), 'clearFailure'],
          },
        ],
      },
    },
    selecting: {
      meta: { screen: 'selecting' },
      invoke: {
        id: 'selectCase',
        src: 'selectCase',
        input: ({ context }) => ({ applicationNo: context.chosen ?? '' }),
        onDone: 'done',
        onError: {
          target: 'chooseCase',
          actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
        },
      },
    },
    done: { meta: { screen: 'done' }, type: 'final' },
  },
});
