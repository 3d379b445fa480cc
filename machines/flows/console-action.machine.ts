import { assign, fromPromise, setup } from 'xstate';
import type { ConsoleActionResult } from '../rules/staff';
import type { HolderResetResult } from '../rules/staff-holders';
import type { DocumentReviewResult } from '../rules/document-review';

/**
 * One action of the case officer console on a case (docs/flows/console-action.md), or the reset of a
 * registration holder (docs/console.md, "Registered AP/RSE", ui/console/HolderResetForm.tsx): the form,
 * a confirmation, the request, and the record. Pure: the request is the `submitAction` actor the console
 * provides (ui/console/ActionForm.tsx); a refusal comes back as a `ConsoleActionFailure`. A 409 (the case
 * moved, or its status does not allow it now) ends in `moved`, where the page reloads the case; a 409
 * CASE_RULE (a rule of the case: docs/flows/case-rules.md) goes back to the form with its message.
 */
export interface ConsoleActionFailure {
  status: number;
  code: string;
  message: string;
  fields: { path: string; message: string }[];
}

export interface ConsoleActionContext {
  /** The answers confirmed (sent by `action.confirm`). */
  answers: Record<string, unknown>;
  failure: ConsoleActionFailure | null;
  result: ConsoleActionOutcome | null;
}

/** What the request answers: a case action's record, what a holder reset did, or a document's review. */
export type ConsoleActionOutcome = ConsoleActionResult | HolderResetResult | DocumentReviewResult;

export type ConsoleActionEvent =
  | { type: 'action.continue' }
  | { type: 'action.back' }
  | { type: 'action.confirm'; answers: Record<string, unknown> };

/** The refusal the console's request rejected with (anything else is a network failure). */
function asFailure(error: unknown): ConsoleActionFailure {
  if (typeof error !== 'object' || error === null)
    return { status: 0, code: 'NETWORK', message: '', fields: [] };
  const e = error as Partial<Record<keyof ConsoleActionFailure, unknown>>;
  return {
    status: typeof e.status === 'number' ? e.status : 0,
    code: typeof e.code === 'string' ? e.code : 'NETWORK',
    message: typeof e.message === 'string' ? e.message : '',
    fields: Array.isArray(e.fields) ? (e.fields as ConsoleActionFailure['fields']) : [],
  };
}

export const consoleActionMachine = setup({
  types: {
    context: {} as ConsoleActionContext,
    events: {} as ConsoleActionEvent,
  },
  actors: {
    /** Sends the action (the console provides the request). */
    submitAction: fromPromise<ConsoleActionOutcome, { answers: Record<string, unknown> }>(() =>
      Promise.reject(new Error('not provided')),
    ),
  },
  guards: {
    /**
     * The case moved or its status refuses the action now: the officer must see the case as it is. A rule
     * of the case (CASE_RULE: a date, an open request) is answered at the form, where it can be corrected.
     */
    isConflict: (_, failure: ConsoleActionFailure) => failure.status === 409 && failure.code !== 'CASE_RULE',
  },
}).createMachine({
  id: 'consoleAction',
  context: { answers: {}, failure: null, result: null },
  initial: 'editing',
  states: {
    editing: {
      on: { 'action.continue': { target: 'confirming' } },
    },
    confirming: {
      on: {
        'action.back': { target: 'editing' },
        'action.confirm': { target: 'sending', actions: assign({ answers: ({ event }) => event.answers }) },
      },
    },
    sending: {
      invoke: {
        id: 'submitAction',
        src: 'submitAction',
        input: ({ context }) => ({ answers: context.answers }),
        onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output, failure: null }) },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => asFailure(event.error) },
            target: 'moved',
            actions: assign({ failure: ({ event }) => asFailure(event.error) }),
          },
          { target: 'editing', actions: assign({ failure: ({ event }) => asFailure(event.error) }) },
        ],
      },
    },
    done: { type: 'final' },
    moved: { type: 'final' },
  },
});
