import { assign, fromPromise, setup } from 'xstate';
import type { InvitationView } from '../rules/appointment';
import { OTP_PATTERN } from '../rules/otp';
import { signingMachine, type SigningOutput } from './signing.machine';

/**
 * Accepting an appointment as AP or RSE (issue 12; route `/appointment-accept#<token>`,
 * docs/flows/appointment-acceptance.md): the invitation is loaded by the link's token (an unknown, expired,
 * cancelled or used one is refused with the API's reason), the appointee checks the case and confirms the
 * email or mobile of the appointment by one-time password, signs the declaration with the signing machine
 * (iAM Smart or e-Cert, invoked as the child `signDeclaration`, exactly as the wizard signs), and accepts.
 * Pure: every API call is an actor the UI provides.
 */

export type Channel = 'email' | 'mobile';

/** A refusal or failure the screen shows: the API's message in the page's language where it gave one. */
export interface AcceptanceFailure {
  kind: 'refused' | 'wrongCode' | 'failed' | 'network';
  message?: string;
}

export interface AcceptanceInput {
  token: string;
  /** The clock (ms epoch) the signing child runs on. */
  now: () => number;
}

interface Context extends AcceptanceInput {
  invitation: InvitationView | null;
  channel: Channel;
  code: string;
  signature: SigningOutput | null;
  failure: AcceptanceFailure | null;
  showErrors: boolean;
}

type Events =
  | { type: 'channel.choose'; channel: Channel }
  | { type: 'otp.send' }
  | { type: 'code.change'; code: string }
  | { type: 'otp.submit' }
  | { type: 'details.edit' }
  | { type: 'flow.retry' };

const failureOf = (error: unknown): AcceptanceFailure =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as AcceptanceFailure)
    : { kind: 'network' };
const notProvided = () => Promise.reject(new Error('actor not provided'));

export const appointmentAcceptanceMachine = setup({
  types: { context: {} as Context, events: {} as Events, input: {} as AcceptanceInput },
  actors: {
    loadInvitation: fromPromise<InvitationView, { token: string }>(notProvided),
    sendCode: fromPromise<unknown, { token: string; channel: Channel }>(notProvided),
    verifyCode: fromPromise<unknown, { token: string; channel: Channel; code: string }>(notProvided),
    signDeclaration: signingMachine,
    accept: fromPromise<unknown, { token: string; signingId: string }>(notProvided),
  },
  guards: {
    isConfirmed: (_, output: InvitationView) => output.confirmed,
    isCodeComplete: ({ context }) => OTP_PATTERN.test(context.code),
    isSigned: (_, output: SigningOutput | null) => output !== null,
  },
  actions: {
    assignInvitation: assign((_, invitation: InvitationView) => ({ invitation, failure: null })),
    assignFailure: assign((_, failure: AcceptanceFailure) => ({ failure })),
    clearFailure: assign({ failure: null, showErrors: false }),
  },
}).createMachine({
  id: 'appointmentAcceptance',
  context: ({ input }) => ({
    ...input,
    invitation: null,
    channel: 'email',
    code: '',
    signature: null,
    failure: null,
    showErrors: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      meta: { screen: 'loading' },
      invoke: {
        id: 'loadInvitation',
        src: 'loadInvitation',
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: 'isConfirmed', params: ({ event }) => event.output },
            target: 'signing',
            actions: { type: 'assignInvitation', params: ({ event }) => event.output },
          },
          { target: 'review', actions: { type: 'assignInvitation', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'refused',
          actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
        },
      },
    },
    refused: { meta: { screen: 'refused' }, type: 'final' },
    review: {
      meta: { screen: 'review' },
      on: {
        'channel.choose': { actions: assign({ channel: ({ event }) => event.channel }) },
        'otp.send': { target: 'sending', actions: 'clearFailure' },
      },
    },
    sending: {
      meta: { screen: 'sending' },
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ token: context.token, channel: context.channel }),
        onDone: { target: 'codeSent', actions: assign({ code: '' }) },
        onError: {
          target: 'review',
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
          { actions: assign({ showErrors: true }) },
        ],
        'otp.send': { target: 'sending', actions: 'clearFailure' },
        'details.edit': { target: 'review', actions: 'clearFailure' },
      },
    },
    verifying: {
      meta: { screen: 'verifying' },
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context }) => ({ token: context.token, channel: context.channel, code: context.code }),
        onDone: 'signing',
        onError: {
          target: 'codeSent',
          actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
        },
      },
    },
    signing: {
      meta: { screen: 'signing' },
      invoke: {
        id: 'signDeclaration',
        src: 'signDeclaration',
        input: ({ context }) => ({
          applicationNo: context.invitation?.applicationNo ?? '',
          now: context.now,
        }),
        onDone: [
          {
            guard: { type: 'isSigned', params: ({ event }) => event.output },
            target: 'accepting',
            actions: assign({ signature: ({ event }) => event.output as SigningOutput }),
          },
          { target: 'review' },
        ],
      },
    },
    accepting: {
      meta: { screen: 'accepting' },
      invoke: {
        id: 'accept',
        src: 'accept',
        input: ({ context }) => ({ token: context.token, signingId: context.signature?.reference ?? '' }),
        onDone: 'accepted',
        onError: {
          target: 'acceptFailed',
          actions: { type: 'assignFailure', params: ({ event }) => failureOf(event.error) },
        },
      },
    },
    acceptFailed: {
      meta: { screen: 'acceptFailed' },
      on: { 'flow.retry': { target: 'accepting', actions: 'clearFailure' } },
    },
    accepted: { meta: { screen: 'accepted' }, type: 'final' },
  },
});
