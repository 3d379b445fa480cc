import { assign, fromPromise, not, setup } from 'xstate';

/**
 * The generic path for acting on a submitted case (docs/decisions/009-case-lifecycle.md): one machine for every follow-up form of the
 * catalogue (machines/forms/follow-up), parameterised by its input. It finds the case of the session (or
 * asks for Find my case first and comes back), explains when the lifecycle does not allow the action now,
 * then fill -> upload -> preview -> sign (each when the form has it) -> submitting -> done. An update form names the version of
 * the case's information it was opened on; when that is no longer the latest, the form shows the latest
 * with the person's changes kept (stale). A failure keeps the answers and says
 * what to do; a retry sends the same Idempotency-Key, so a request that did arrive is not made twice.
 * Every screen is on the form's one route (`meta.screen` names what it shows). docs/flows/case-action.md.
 */

import type {
  CaseCalendar,
  CaseSummary,
  LoadCaseOutput,
  InformationRequest,
  CaseInformation,
  CaseUpload,
  SubmitActionInput,
  SubmitActionOutput,
  CaseActionFailure,
  CaseActionInput,
} from './case-action-types';

export type * from './case-action-types';

interface Context extends CaseActionInput {
  answers: Record<string, unknown>;
  /** The case's information the form was opened on (null for a form that does not update it). */
  base: CaseInformation | null;
  /** The route of the form to use instead, when this one is not for the case. */
  elsewhere: string | null;
  request: InformationRequest | null;
  uploads: CaseUpload[];
  /** The signing's reference, cleared by any change of the answers or files. */
  signature: string | null;
  summary: CaseSummary | null;
  calendar: CaseCalendar;
  showErrors: boolean;
  failure: CaseActionFailure | null;
  result: SubmitActionOutput | null;
}

type Events =
  | { type: 'answer.change'; field: string; value: unknown }
  | { type: 'step.next' }
  | { type: 'step.back' }
  | { type: 'step.submit' }
  | { type: 'login.done' }
  | { type: 'upload.change'; uploads: CaseUpload[] }
  | { type: 'sign.done'; reference: string }
  | { type: 'flow.retry' };

const toFailure = (error: unknown): CaseActionFailure =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as CaseActionFailure)
    : { kind: 'network' };

/**
 * The answers after the information changed from `opened` to `now`: what the person changed against
 * `opened` stays theirs, everything else is as it is now.
 */
export function keepChanges(
  opened: Record<string, unknown>,
  mine: Record<string, unknown>,
  now: Record<string, unknown>,
): Record<string, unknown> {
  const changed = Object.entries(mine).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(opened[k]));
  return { ...now, ...Object.fromEntries(changed) };
}

export const caseActionMachine = setup({
  types: {
    context: {} as Context,
    events: {} as Events,
    input: {} as CaseActionInput,
  },
  actors: {
    loadCase: fromPromise<LoadCaseOutput>(() => Promise.reject(new Error('loadCase not provided'))),
    submitAction: fromPromise<SubmitActionOutput, SubmitActionInput>(() =>
      Promise.reject(new Error('submitAction not provided')),
    ),
  },
  guards: {
    isLoggedOut: (_, output: LoadCaseOutput) => output.kind === 'loggedOut',
    isActionAllowed: (_, output: LoadCaseOutput) => output.kind === 'case' && output.allowed,
    isAnswersValid: ({ context }) =>
      context.validate(context.answers, {
        calendar: context.calendar,
        formCode: context.summary?.formCode ?? '',
        base: context.base?.answers ?? null,
      }),
    hasPreview: ({ context }) => context.hasPreview,
    hasUpload: ({ context }) => context.hasUpload === true,
    hasSign: ({ context }) => context.hasSign === true,
    hasUploads: ({ context }) => context.uploads.length > 0,
    isUnsignedFailure: (_, failure: CaseActionFailure) => failure.kind === 'unsigned',
    isInvalidFailure: (_, failure: CaseActionFailure) => failure.kind === 'invalid',
    isNotAllowedFailure: (_, failure: CaseActionFailure) => failure.kind === 'notAllowed',
    isStaleFailure: (_, failure: CaseActionFailure) => failure.kind === 'stale',
    isLoggedOutFailure: (_, failure: CaseActionFailure) => failure.kind === 'loggedOut',
  },
  actions: {
    // After a login in the middle of the flow, or a reload (the answers kept in the tab), what was typed
    // stays over the prefill: an update form keeps only the changes, laid over the information as it is now.
    assignCase: assign(({ context }, output: LoadCaseOutput) =>
      output.kind === 'case'
        ? {
            summary: output.summary,
            calendar: output.calendar,
            answers: { ...output.prefill, ...context.answers },
            base: context.base ?? output.information ?? null,
            elsewhere: output.elsewhere ?? null,
            request: output.request ?? null,
          }
        : {},
    ),
    assignAnswer: assign({
      answers: ({ context, event }) =>
        event.type === 'answer.change' ? { ...context.answers, [event.field]: event.value } : context.answers,
      signature: null,
    }),
    assignUploads: assign({
      uploads: ({ context, event }) => (event.type === 'upload.change' ? event.uploads : context.uploads),
      signature: null,
    }),
    assignSignature: assign({
      signature: ({ context, event }) => (event.type === 'sign.done' ? event.reference : context.signature),
    }),
    revealErrors: assign({ showErrors: true }),
    clearErrors: assign({ showErrors: false, failure: null }),
    assignFailure: assign(({ context }, failure: CaseActionFailure) => ({
      failure,
      showErrors: failure.kind === 'invalid',
      summary:
        failure.kind === 'notAllowed' && context.summary
          ? { ...context.summary, status: failure.status }
          : context.summary,
    })),
    // The information changed meanwhile: the form now starts from it, with what the person changed kept.
    assignStale: assign(({ context }, failure: CaseActionFailure) =>
      failure.kind === 'stale'
        ? {
            failure,
            showErrors: false,
            base: failure.information,
            answers: keepChanges(context.base?.answers ?? {}, context.answers, failure.information.answers),
          }
        : {},
    ),
    assignResult: assign(({ context }, result: SubmitActionOutput) => ({
      result,
      summary: context.summary ? { ...context.summary, status: result.status } : null,
    })),
  },
}).createMachine({
  id: 'caseAction',
  context: ({ input }) => ({
    ...input,
    answers: { ...input.initialAnswers },
    base: null,
    elsewhere: null,
    request: null,
    uploads: [],
    signature: null,
    summary: null,
    calendar: { today: '1970-01-01', holidays: [] },
    showErrors: false,
    failure: null,
    result: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      meta: { screen: 'loading' },
      invoke: {
        id: 'loadCase',
        src: 'loadCase',
        onDone: [
          { guard: { type: 'isLoggedOut', params: ({ event }) => event.output }, target: 'login' },
          {
            guard: { type: 'isActionAllowed', params: ({ event }) => event.output },
            target: 'fill',
            actions: { type: 'assignCase', params: ({ event }) => event.output },
          },
          { target: 'notAllowed', actions: { type: 'assignCase', params: ({ event }) => event.output } },
        ],
        onError: 'loadFailed',
      },
    },
    loadFailed: {
      meta: { screen: 'loadFailed' },
      on: { 'flow.retry': 'loading' },
    },
    login: {
      meta: { screen: 'login' },
      on: { 'login.done': 'loading' },
    },
    notAllowed: {
      meta: { screen: 'notAllowed' },
    },
    fill: {
      meta: { screen: 'fill' },
      on: {
        'answer.change': { actions: 'assignAnswer' },
        'step.next': [
          { guard: not('isAnswersValid'), actions: 'revealErrors' },
          { guard: 'hasUpload', target: 'upload', actions: 'clearErrors' },
          { guard: 'hasPreview', target: 'preview', actions: 'clearErrors' },
          { guard: 'hasSign', target: 'sign', actions: 'clearErrors' },
          { target: 'submitting', actions: 'clearErrors' },
        ],
      },
    },
    // The files of the form (the wizard's uploader, the same checks); at least one to go on.
    upload: {
      meta: { screen: 'upload' },
      on: {
        'upload.change': { actions: 'assignUploads' },
        'step.back': { target: 'fill', actions: 'clearErrors' },
        'step.next': [
          { guard: not('hasUploads'), actions: 'revealErrors' },
          { guard: 'hasPreview', target: 'preview', actions: 'clearErrors' },
          { guard: 'hasSign', target: 'sign', actions: 'clearErrors' },
          { target: 'submitting', actions: 'clearErrors' },
        ],
      },
    },
    preview: {
      meta: { screen: 'preview' },
      on: {
        'step.back': [
          { guard: 'hasUpload', target: 'upload', actions: 'clearErrors' },
          { target: 'fill', actions: 'clearErrors' },
        ],
        'step.submit': [
          { guard: 'hasSign', target: 'sign', actions: 'clearErrors' },
          { target: 'submitting', actions: 'clearErrors' },
        ],
      },
    },
    // Signing the answers and files (the signing machine's iAM Smart or e-Cert, shown by the page).
    sign: {
      meta: { screen: 'sign' },
      on: {
        'sign.done': { target: 'submitting', actions: ['assignSignature', 'clearErrors'] },
        'step.back': [
          { guard: 'hasPreview', target: 'preview', actions: 'clearErrors' },
          { guard: 'hasUpload', target: 'upload', actions: 'clearErrors' },
          { target: 'fill', actions: 'clearErrors' },
        ],
      },
    },
    submitting: {
      meta: { screen: 'submitting' },
      invoke: {
        id: 'submitAction',
        src: 'submitAction',
        input: ({ context }) => ({
          answers: context.answers,
          idempotencyKey: context.idempotencyKey,
          ...(context.base ? { baseVersion: context.base.version } : {}),
          ...(context.hasUpload ? { uploads: context.uploads.map((u) => u.id) } : {}),
          ...(context.signature ? { signature: context.signature } : {}),
          ...(context.request ? { requestId: context.request.id } : {}),
        }),
        onDone: { target: 'done', actions: { type: 'assignResult', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'isInvalidFailure', params: ({ event }) => toFailure(event.error) },
            target: 'fill',
            actions: { type: 'assignFailure', params: ({ event }) => toFailure(event.error) },
          },
          {
            guard: { type: 'isUnsignedFailure', params: ({ event }) => toFailure(event.error) },
            target: 'sign',
            actions: { type: 'assignFailure', params: ({ event }) => toFailure(event.error) },
          },
          {
            guard: { type: 'isStaleFailure', params: ({ event }) => toFailure(event.error) },
            target: 'fill',
            actions: { type: 'assignStale', params: ({ event }) => toFailure(event.error) },
          },
          {
            guard: { type: 'isNotAllowedFailure', params: ({ event }) => toFailure(event.error) },
            target: 'notAllowed',
            actions: { type: 'assignFailure', params: ({ event }) => toFailure(event.error) },
          },
          {
            guard: { type: 'isLoggedOutFailure', params: ({ event }) => toFailure(event.error) },
            target: 'login',
            actions: { type: 'assignFailure', params: ({ event }) => toFailure(event.error) },
          },
          {
            target: 'submitFailed',
            actions: { type: 'assignFailure', params: ({ event }) => toFailure(event.error) },
          },
        ],
      },
    },
    submitFailed: {
      meta: { screen: 'submitFailed' },
      on: {
        'flow.retry': { target: 'submitting', actions: 'clearErrors' },
        'step.back': { target: 'fill', actions: 'clearErrors' },
      },
    },
    done: {
      meta: { screen: 'done' },
      type: 'final',
    },
  },
});
