import { assign, fromPromise, setup } from 'xstate';
import type { AppointeeCase } from '../rules/appointment';
import { parseContact, OTP_PATTERN } from '../rules/otp';
import { parseRegistrationNumber } from '../rules/registration';
import type { LoginSession } from './login-otp.machine';

/**
 * The AP/RSE login (issue 12; route `/appointee-login`, docs/flows/appointee-login.md): registration number
 * and the email or mobile of an accepted appointment, a one-time password, then the cases they are
 * appointed to; choosing one moves the session there (the newest is the session's case at first). Pure:
 * the API calls are actors the UI provides; the UI stores the session (role, authorised routes and buttons).
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

interface Context {
  registrationNumber: string;
  contact: string;
  code: string;
  showErrors: boolean;
  failure: AppointeeFailure | null;
  session: AppointeeSession | null;
  chosen: string | null;
}

type Events =
  | { type: 'details.change'; registrationNumber?: string; contact?: string }
  | { type: 'otp.send' }
  | { type: 'code.change'; code: string }
  | { type: 'otp.submit' }
  | { type: 'details.edit' }
  | { type: 'case.choose'; applicationNo: string };

export const isRegistrationValid = (value: string) => parseRegistrationNumber(value) !== undefined;
export const isContactValid = (value: string) => parseContact(value.trim()) !== undefined;

const failureOf = (error: unknown): AppointeeFailure =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as AppointeeFailure)
    : { kind: 'network' };
const notProvided = () => Promise.reject(new Error('actor not provided'));

export const appointeeLoginMachine = setup({
  types: { context: {} as Context, events: {} as Events },
  actors: {
    sendCode: fromPromise<unknown, { registrationNumber: string; contact: string }>(notProvided),
    verifyCode: fromPromise<AppointeeSession, { registrationNumber: string; contact: string; code: string }>(
      notProvided,
    ),
    selectCase: fromPromise<unknown, { applicationNo: string }>(notProvided),
  },
  guards: {
    hasValidDetails: ({ context }) =>
      isRegistrationValid(context.registrationNumber) && isContactValid(context.contact),
    isCodeComplete: ({ context }) => OTP_PATTERN.test(context.code),
    isCurrentCase: ({ context, event }) =>
      event.type === 'case.choose' && event.applicationNo === context.session?.applicationNo,
  },
  actions: {
    assignFailure: assign((_, failure: AppointeeFailure) => ({ failure })),
    clearFailure: assign({ failure: null, showErrors: false }),
    revealErrors: assign({ showErrors: true }),
  },
}).createMachine({
  id: 'appointeeLogin',
  context: {
    registrationNumber: '',
    contact: '',
    code: '',
    showErrors: false,
    failure: null,
    session: null,
    chosen: null,
  },
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
          { guard: 'hasValidDetails', target: 'sending', actions: 'clearFailure' },
          { actions: 'revealErrors' },
        ],
      },
    },
    sending: {
      meta: { screen: 'sending' },
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({
          registrationNumber: context.registrationNumber,
          contact: context.contact,
        }),
        onDone: { target: 'codeSent', actions: assign({ code: '' }) },
        onError: {
          target: 'enterDetails',
          actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
        },
      },
    },
    codeSent: {
      meta: { screen: 'codeSent' },
      on: {
        'code.change': { actions: assign({ code: ({ event }) => event.code }) },
        'otp.submit': [
          { guard: 'isCodeComplete', target: 'verifying', actions: 'clearFailure' },
          { actions: 'revealErrors' },
        ],
        'otp.send': { target: 'sending', actions: 'clearFailure' },
        'details.edit': { target: 'enterDetails', actions: 'clearFailure' },
      },
    },
    verifying: {
      meta: { screen: 'verifying' },
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context }) => ({
          registrationNumber: context.registrationNumber,
          contact: context.contact,
          code: context.code,
        }),
        onDone: { target: 'chooseCase', actions: assign({ session: ({ event }) => event.output }) },
        onError: {
          target: 'codeSent',
          actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
        },
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
