import { assign, fromPromise, not, setup } from 'xstate';

/**
 * The generic path for acting on a submitted case (issue 10): one machine for every follow-up form of the
 * catalogue (machines/forms/follow-up), parameterised by its input. It finds the case of the session (or
 * asks for Find my case first and comes back), explains when the lifecycle does not allow the action now,
 * then fill -> preview (when the form has one) -> submitting -> done. A failure keeps the answers and says
 * what to do; a retry sends the same Idempotency-Key, so a request that did arrive is not made twice.
 * Every screen is on the form's one route (`meta.screen` names what it shows). docs/flows/case-action.md.
 */

/** The calendar the checks need: today in Hong Kong and the general holidays around it. */
export interface CaseCalendar {
  today: string;
  holidays: readonly string[];
}

/** The case as the follow-up screens show it (status is a lifecycle code; formCode 'A2' ...). */
export interface CaseSummary {
  applicationNo: string;
  status: string;
  formCode: string;
  applicationType: string;
  submittedAt: string;
}

/** What loading the case answers: the session's case and whether this action is allowed on it now. */
export type LoadCaseOutput =
  | { kind: 'loggedOut' }
  | {
      kind: 'case';
      summary: CaseSummary;
      allowed: boolean;
      /** Answers to start with (from the case), when the form prefills. */
      prefill: Record<string, string>;
      calendar: CaseCalendar;
    };

export interface SubmitActionInput {
  answers: Record<string, unknown>;
  idempotencyKey: string;
}
export interface SubmitActionOutput {
  reference: string;
  status: string;
  submittedAt: string;
}
/** Why a submission failed: the screen says what to do for each. */
export type CaseActionFailure =
  | { kind: 'invalid'; fields: Record<string, string> }
  | { kind: 'notAllowed'; status: string; message: string }
  | { kind: 'loggedOut' }
  | { kind: 'failed'; message: string }
  | { kind: 'network' };

export interface CaseActionInput {
  /** Whether the form has a preview step. */
  hasPreview: boolean;
  /** The form's schema, with the calendar: true when the answers may be submitted. */
  validate: (answers: Record<string, unknown>, calendar: CaseCalendar) => boolean;
  /** A fresh key for this flow's submission (made by the caller; the machine makes nothing random). */
  idempotencyKey: string;
}

interface Context extends CaseActionInput {
  answers: Record<string, unknown>;
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
  | { type: 'flow.retry' };

const toFailure = (error: unknown): CaseActionFailure =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? (error as CaseActionFailure)
    : { kind: 'network' };

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
    isAnswersValid: ({ context }) => context.validate(context.answers, context.calendar),
    hasPreview: ({ context }) => context.hasPreview,
    isInvalidFailure: (_, failure: CaseActionFailure) => failure.kind === 'invalid',
    isNotAllowedFailure: (_, failure: CaseActionFailure) => failure.kind === 'notAllowed',
    isLoggedOutFailure: (_, failure: CaseActionFailure) => failure.kind === 'loggedOut',
  },
  actions: {
    // After a login in the middle of the flow, what was typed stays; the prefill only starts an empty form.
    assignCase: assign(({ context }, output: LoadCaseOutput) =>
      output.kind === 'case'
        ? {
            summary: output.summary,
            calendar: output.calendar,
            answers: Object.keys(context.answers).length > 0 ? context.answers : { ...output.prefill },
          }
        : {},
    ),
    assignAnswer: assign({
      answers: ({ context, event }) =>
        event.type === 'answer.change' ? { ...context.answers, [event.field]: event.value } : context.answers,
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
    assignResult: assign(({ context }, result: SubmitActionOutput) => ({
      result,
      summary: context.summary ? { ...context.summary, status: result.status } : null,
    })),
  },
}).createMachine({
  id: 'caseAction',
  context: ({ input }) => ({
    ...input,
    answers: {},
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
          { guard: 'hasPreview', target: 'preview', actions: 'clearErrors' },
          { target: 'submitting', actions: 'clearErrors' },
        ],
      },
    },
    preview: {
      meta: { screen: 'preview' },
      on: {
        'step.back': { target: 'fill', actions: 'clearErrors' },
        'step.submit': { target: 'submitting', actions: 'clearErrors' },
      },
    },
    submitting: {
      meta: { screen: 'submitting' },
      invoke: {
        id: 'submitAction',
        src: 'submitAction',
        input: ({ context }) => ({ answers: context.answers, idempotencyKey: context.idempotencyKey }),
        onDone: { target: 'done', actions: { type: 'assignResult', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'isInvalidFailure', params: ({ event }) => toFailure(event.error) },
            target: 'fill',
            actions: { type: 'assignFailure', params: ({ event }) => toFailure(event.error) },
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
