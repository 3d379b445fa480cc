import { assign, fromPromise, setup } from 'xstate';
import {
  FALLBACK_EXPIRY_MS,
  MAX_POLL_FAILURES,
  type PollIamSmartOutput,
  type SigningContext,
  type SigningError,
  type SigningEvent,
  signingFailure,
  type SigningInput,
  type SigningOutput,
  type SigningScreen,
  type SigningStateMeta,
  type StartIamSmartOutput,
  toSigningFailure,
  POLL_INTERVAL_MS,
  type CancelIamSmartInput,
  type PollIamSmartInput,
  type PrepareEcertInput,
  type PrepareEcertOutput,
  type StartIamSmartInput,
  type VerifyEcertInput,
  type VerifyEcertOutput,
} from './signing/types';

/**
 * Signing the application (spec: signed by iAM Smart, signed by a Hongkong Post e-Cert, D70004, D70005),
 * invoked by the application wizard as its `signDocuments` child. Pure: the API calls are the actors
 * `startIamSmart`, `pollIamSmart`, `cancelIamSmart`, `prepareEcert` and `verifyEcert`, which the UI supplies
 * with `signingMachine.provide({ actors })` (ui/flows/signing/signing-actors.ts); time comes from `input.now`
 * and the poll interval is an XState delay, so tests run it on a simulated clock. Diagram: docs/flows/signing.md.
 */

/** iAM Smart's codes the screen tells apart. */
export const NO_SIGNING_FUNCTION_CODE = 'D70004';
export const HKIC_MISMATCH_CODE = 'D70005';

const pollOutput = (event: object): Partial<PollIamSmartOutput> =>
  'output' in event && typeof event.output === 'object' && event.output !== null ? event.output : {};
const failureOf = (event: object) => toSigningFailure('error' in event ? event.error : undefined);
const isStatus =
  (status: PollIamSmartOutput['status'], code?: string) =>
  ({ event }: { event: object }) => {
    const out = pollOutput(event);
    return out.status === status && (code === undefined || out.code === code);
  };
/** The default actors: the UI and the tests provide real ones. */
const notProvided = () => Promise.reject(signingFailure({ kind: 'network' }));
const meta = (screen: SigningScreen, busy = false): SigningStateMeta =>
  busy ? { screen, busy } : { screen };
const fail = (error: SigningError) => ({ type: 'assignFailure', params: { error } }) as const;
const toChoose = { target: '#signing.choose', actions: 'clearAttempt' } as const;

/** The screen a snapshot of the signing machine shows (its active state's `meta.screen`). */
export function screenOfSigning(snapshot: { getMeta: () => Record<string, unknown> }): SigningScreen {
  const metas = Object.values(snapshot.getMeta()) as Partial<SigningStateMeta>[];
  return metas.find((m) => m.screen !== undefined)?.screen ?? 'choose';
}

/** The context of no attempt yet: where the machine starts, and what `clearAttempt` goes back to. */
const NO_ATTEMPT = {
  request: null,
  expiresAt: null,
  pollFailures: 0,
  ecert: null,
  file: null,
  fileName: null,
  showFileError: false,
  ecertError: null,
  error: null,
  errorCode: null,
  errorMessage: null,
} as const satisfies Partial<SigningContext>;

export const signingMachine = setup({
  types: {
    context: {} as SigningContext,
    events: {} as SigningEvent,
    input: {} as SigningInput,
    output: {} as SigningOutput | null,
    meta: {} as SigningStateMeta,
  },
  actors: {
    startIamSmart: fromPromise<StartIamSmartOutput, StartIamSmartInput>(notProvided),
    pollIamSmart: fromPromise<PollIamSmartOutput, PollIamSmartInput>(notProvided),
    cancelIamSmart: fromPromise<void, CancelIamSmartInput>(notProvided),
    prepareEcert: fromPromise<PrepareEcertOutput, PrepareEcertInput>(notProvided),
    verifyEcert: fromPromise<VerifyEcertOutput, VerifyEcertInput>(notProvided),
  },
  delays: { pollInterval: POLL_INTERVAL_MS },
  guards: {
    isExpiredLocally: ({ context }) => context.expiresAt !== null && context.now() >= context.expiresAt,
    isSigned: isStatus('signed'),
    isNoSigningFunction: isStatus('failed', NO_SIGNING_FUNCTION_CODE),
    isHkicMismatch: isStatus('failed', HKIC_MISMATCH_CODE),
    isFailed: isStatus('failed'),
    isExpired: isStatus('expired'),
    isCancelled: isStatus('cancelled'),
    isLastPollFailure: ({ context }) => context.pollFailures + 1 >= MAX_POLL_FAILURES,
    hasFile: ({ context }) => context.file !== null,
    isEcertChosen: ({ context }) => context.method === 'ecert',
  },
  actions: {
    chooseIamSmart: assign({ method: 'iamsmart' }),
    chooseEcert: assign({ method: 'ecert' }),
    /** Forgets the last attempt (request, file, errors); the method chosen stays for `signing.retry`. */
    clearAttempt: assign(NO_ATTEMPT),
    assignRequest: assign(({ context, event }) => {
      const request = (event as { output?: StartIamSmartOutput }).output ?? null;
      const parsed = request ? Date.parse(request.expiresAt) : Number.NaN;
      return {
        request,
        expiresAt: Number.isFinite(parsed) ? parsed : context.now() + FALLBACK_EXPIRY_MS,
        pollFailures: 0,
      };
    }),
    resetPollFailures: assign({ pollFailures: 0 }),
    countPollFailure: assign({ pollFailures: ({ context }) => context.pollFailures + 1 }),
    assignFailure: assign(({ event }, params: { error: SigningError }) => ({
      error: params.error,
      errorCode: params.error === 'failed' ? (pollOutput(event).code ?? null) : null,
      errorMessage: null,
    })),
    /** A start that failed: `network` when the portal gave no answer, `failed` when it refused. */
    assignStartFailure: assign(({ event }) => {
      const failure = failureOf(event);
      return {
        error: failure.kind === 'network' ? 'network' : 'failed',
        errorCode: null,
        errorMessage: failure.kind === 'failed' ? (failure.message ?? null) : null,
      };
    }),
    assignIamSmartSignature: assign(({ context, event }) => ({
      result: {
        method: 'iamsmart' as const,
        reference: pollOutput(event).reference ?? context.request?.requestId ?? '',
      },
    })),
    assignEcert: assign({ ecert: ({ event }) => (event as { output?: PrepareEcertOutput }).output ?? null }),
    assignFile: assign(({ event }) =>
      event.type === 'ecert.file'
        ? { file: event.file, fileName: event.name, showFileError: false, ecertError: null }
        : {},
    ),
    revealFileError: assign({ showFileError: true }),
    clearEcertError: assign({ ecertError: null, showFileError: false }),
    assignEcertError: assign(({ event }) => {
      const failure = failureOf(event);
      return {
        ecertError: failure.kind === 'rejected' ? failure.reason : failure.kind,
        errorMessage: failure.kind === 'failed' ? (failure.message ?? null) : null,
      };
    }),
    assignEcertSignature: assign({
      result: ({ event }) => ({
        method: 'ecert' as const,
        reference: (event as { output?: VerifyEcertOutput }).output?.reference ?? '',
      }),
    }),
  },
}).createMachine({
  id: 'signing',
  context: ({ input }) => ({
    applicationNo: input.applicationNo,
    now: input.now,
    method: null,
    ...NO_ATTEMPT,
    result: null,
  }),
  initial: 'choose',
  output: ({ context }) => context.result,
  states: {
    choose: {
      meta: meta('choose'),
      on: {
        'signing.iamsmart': { target: 'requesting', actions: 'chooseIamSmart' },
        'signing.ecert': { target: 'preparing', actions: 'chooseEcert' },
        'signing.back': 'abandoned',
      },
    },

    // iAM Smart: a request (QR code and identification code), then polls until the phone answers.
    requesting: {
      meta: meta('requesting', true),
      entry: 'clearAttempt',
      invoke: {
        id: 'startIamSmart',
        src: 'startIamSmart',
        input: ({ context }) => ({ applicationNo: context.applicationNo }),
        onDone: { target: 'pending', actions: 'assignRequest' },
        onError: { target: 'failed', actions: 'assignStartFailure' },
      },
    },
    pending: {
      meta: meta('pending'),
      initial: 'waiting',
      on: { 'signing.cancel': 'cancelling' },
      states: {
        waiting: {
          after: {
            pollInterval: [
              { guard: 'isExpiredLocally', target: '#signing.failed', actions: fail('expired') },
              { target: 'polling' },
            ],
          },
        },
        polling: {
          invoke: {
            id: 'pollIamSmart',
            src: 'pollIamSmart',
            input: ({ context }) => ({
              applicationNo: context.applicationNo,
              requestId: context.request?.requestId ?? '',
            }),
            onDone: [
              { guard: 'isSigned', target: '#signing.signed', actions: 'assignIamSmartSignature' },
              { guard: 'isNoSigningFunction', target: '#signing.failed', actions: fail('d70004') },
              { guard: 'isHkicMismatch', target: '#signing.failed', actions: fail('d70005') },
              { guard: 'isFailed', target: '#signing.failed', actions: fail('failed') },
              { guard: 'isExpired', target: '#signing.failed', actions: fail('expired') },
              { guard: 'isCancelled', target: '#signing.failed', actions: fail('cancelled') },
              // `pending`, or a status this version does not know: wait for the next answer.
              { target: 'waiting', actions: 'resetPollFailures' },
            ],
            onError: [
              { guard: 'isLastPollFailure', target: '#signing.failed', actions: fail('network') },
              { target: 'waiting', actions: 'countPollFailure' },
            ],
          },
        },
      },
    },
    // Best effort: whatever the portal answers, the applicant is back at the choice.
    cancelling: {
      meta: meta('cancelling', true),
      invoke: {
        id: 'cancelIamSmart',
        src: 'cancelIamSmart',
        input: ({ context }) => ({
          applicationNo: context.applicationNo,
          requestId: context.request?.requestId ?? '',
        }),
        onDone: toChoose,
        onError: toChoose,
      },
    },

    // e-Cert: the text and hash to sign, then the applicant's signature file, verified by the portal.
    preparing: {
      meta: meta('preparing', true),
      entry: 'clearAttempt',
      invoke: {
        id: 'prepareEcert',
        src: 'prepareEcert',
        input: ({ context }) => ({ applicationNo: context.applicationNo }),
        onDone: { target: 'ecertReady', actions: 'assignEcert' },
        onError: { target: 'failed', actions: 'assignStartFailure' },
      },
    },
    ecertReady: {
      meta: meta('ecertReady'),
      on: {
        'ecert.file': { actions: 'assignFile' },
        'ecert.submit': [
          { guard: 'hasFile', target: 'verifying', actions: 'clearEcertError' },
          { actions: 'revealFileError' },
        ],
        'signing.cancel': toChoose,
      },
    },
    verifying: {
      meta: meta('verifying', true),
      invoke: {
        id: 'verifyEcert',
        src: 'verifyEcert',
        input: ({ context }) => ({ applicationNo: context.applicationNo, file: context.file as Blob }),
        onDone: { target: 'signed', actions: 'assignEcertSignature' },
        onError: { target: 'ecertReady', actions: 'assignEcertError' },
      },
    },

    failed: {
      meta: meta('failed'),
      on: {
        'signing.retry': [{ guard: 'isEcertChosen', target: 'preparing' }, { target: 'requesting' }],
        'signing.other': toChoose,
        'signing.back': 'abandoned',
      },
    },
    signed: { type: 'final', meta: meta('signed') },
    abandoned: { type: 'final', meta: meta('abandoned') },
  },
});
