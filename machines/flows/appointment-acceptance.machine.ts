import { assign, fromPromise, setup } from 'xstate';
import type { InvitationView } from '../rules/appointment';
import { oneTimeCodeMachine } from './one-time-code.machine';
import {
  isCodeVerified,
  isSendRefused,
  type OneTimeCodeOptions,
  type OneTimeCodeOutput,
} from './one-time-code/types';
import { signingMachine } from './signing.machine';
import type { SigningOutput } from './signing/types';

/**
 * Accepting an appointment as AP or RSE (docs/decisions/020-appointments.md; route `/appointment-accept#<token>`,
 * docs/flows/appointment-acceptance.md): the invitation is loaded by the link's token (an unknown, expired,
 * cancelled or used one is refused with the API's reason), the appointee checks the case and confirms the
 * email or mobile of the appointment by one-time password (the one-time code machine, invoked as the child
 * `oneTimeCode`), signs the declaration with the signing machine (iAM Smart or e-Cert, invoked as the child
 * `signDeclaration`, exactly as the wizard signs), and accepts. Pure: every API call is an actor the UI
 * provides.
 */

export type Channel = 'email' | 'mobile';

/** A refusal or failure the screen shows: the API's message in the page's language where it gave one. */
export interface AcceptanceFailure {
  kind: 'refused' | 'wrongCode' | 'failed' | 'network';
  message?: string;
}

/** The appointee's code step: resend at any time, every failure shown where it happened, the code as typed. */
export const ACCEPTANCE_CODE: OneTimeCodeOptions = {
  resendCountdown: false,
  failureStates: false,
  digitsOnly: false,
};

export interface AcceptanceInput {
  token: string;
  /** The clock (ms epoch) the code and signing children run on. */
  now: () => number;
}

interface Context extends AcceptanceInput {
  invitation: InvitationView | null;
  channel: Channel;
  signature: SigningOutput | null;
  failure: AcceptanceFailure | null;
}

type Events = { type: 'channel.choose'; channel: Channel } | { type: 'otp.send' } | { type: 'flow.retry' };

const failureOf = (error: unknown): AcceptanceFailure =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as AcceptanceFailure)
    : { kind: 'network' };
const notProvided = () => Promise.reject(new Error('actor not provided'));

export const appointmentAcceptanceMachine = setup({
  types: { context: {} as Context, events: {} as Events, input: {} as AcceptanceInput },
  actors: {
    loadInvitation: fromPromise<InvitationView, { token: string }>(notProvided),
    oneTimeCode: oneTimeCodeMachine,
    signDeclaration: signingMachine,
    accept: fromPromise<unknown, { token: string; signingId: string }>(notProvided),
  },
  guards: {
    isConfirmed: (_, output: InvitationView) => output.confirmed,
    isCodeVerified,
    isSendRefused,
    isSigned: (_, output: SigningOutput | null) => output !== null,
  },
  actions: {
    assignInvitation: assign((_, invitation: InvitationView) => ({ invitation, failure: null })),
    assignFailure: assign((_, failure: AcceptanceFailure) => ({ failure })),
    clearFailure: assign({ failure: null }),
    /** A send refused: the review shows the API's words (or the network's failure). */
    assignRefusal: assign((_, output: OneTimeCodeOutput) => ({
      failure:
        output.result !== 'refused'
          ? null
          : {
              kind: output.error.kind === 'network' ? ('network' as const) : ('refused' as const),
              ...(output.error.message === undefined ? {} : { message: output.error.message }),
            },
    })),
  },
}).createMachine({
  id: 'appointmentAcceptance',
  context: ({ input }) => ({
    ...input,
    invitation: null,
    channel: 'email',
    signature: null,
    failure: null,
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
        'otp.send': { target: 'code', actions: 'clearFailure' },
      },
    },
    code: {
      meta: { screen: 'code' },
      invoke: {
        id: 'oneTimeCode',
        src: 'oneTimeCode',
        input: ({ context }) => ({
          now: context.now,
          request: { token: context.token, channel: context.channel },
          options: ACCEPTANCE_CODE,
        }),
        onDone: [
          { guard: { type: 'isCodeVerified', params: ({ event }) => event.output }, target: 'signing' },
          {
            guard: { type: 'isSendRefused', params: ({ event }) => event.output },
            target: 'review',
            actions: { type: 'assignRefusal', params: ({ event }) => event.output },
          },
          { target: 'review' },
        ],
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
