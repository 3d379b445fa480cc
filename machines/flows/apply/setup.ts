import { assign, enqueueActions, fromPromise, setup, stateIn } from 'xstate';
import { signingMachine } from '../signing.machine';
import type { SigningInput } from '../signing/types';
import {
  applyFailure,
  areAllStepsValid,
  fillStepIndexes,
  hasAllRequiredDocuments,
  indexOfStep,
  isFillStep,
  reachableStepIndex,
  toSaveError,
  toSubmitError,
} from './steps';
import type {
  ApplyContext,
  ApplyEvent,
  ApplyInput,
  LoadDraftInput,
  LoadDraftOutput,
  SaveDraftInput,
  SaveDraftOutput,
  SignDocumentsOutput,
  SubmitApplicationInput,
  SubmitApplicationOutput,
} from './types';

/**
 * The named actors, delays, guards and actions of the application wizard; the chart is apply.machine.ts.
 * The actors here reject as a network failure: the UI provides the real ones, tests provide fakes.
 */
export const AUTOSAVE_DELAY_MS = 1500;
export const SAVE_RETRY_MS = 15_000;

const notProvided = () => Promise.reject(applyFailure({ kind: 'network' }));
const errorOf = (event: object): unknown => ('error' in event ? event.error : undefined);
const outputOf = <T>(event: object): T => (event as { output: T }).output;

/** The context at the start: a fresh form, or a resumed draft on its step (or the furthest reachable one). */
export function initialContext({ input }: { input: ApplyInput }): ApplyContext {
  const { definition, now, validate, resume } = input;
  const answers = resume?.answers ?? {};
  const base = { definition, answers, validate };
  return {
    ...base,
    now,
    stepIndex: resume ? reachableStepIndex(base, resume.step) : (fillStepIndexes(definition)[0] ?? 0),
    returnToPreview: false,
    errors: {},
    applicationNo: resume?.applicationNo ?? null,
    version: resume?.version ?? null,
    validUntil: resume?.validUntil ?? null,
    saveStatus: 'idle',
    saveError: null,
    lastSavedAt: null,
    dirty: false,
    documents: {},
    showDocumentErrors: false,
    contactVerified: false,
    showContactError: false,
    signature: null,
    submitError: null,
    submitMessage: null,
    submission: null,
  };
}

// The inputs of the invoked actors, from the context.
type From = { context: ApplyContext };
export const saveDraftInput = ({ context: c }: From): SaveDraftInput => ({
  formCode: c.definition.code,
  applicationNo: c.applicationNo,
  version: c.version,
  step: c.stepIndex + 1,
  answers: c.answers,
});
export const loadDraftInput = ({ context: c }: From): LoadDraftInput => ({
  applicationNo: c.applicationNo ?? '',
});
export const signDocumentsInput = ({ context: c }: From): SigningInput => ({
  applicationNo: c.applicationNo ?? '',
  now: c.now,
});
export const submitApplicationInput = ({ context: c }: From): SubmitApplicationInput => ({
  applicationNo: c.applicationNo ?? '',
  version: c.version,
  reference: c.signature?.reference ?? '',
});

export const applySetup = setup({
  types: {
    context: {} as ApplyContext,
    events: {} as ApplyEvent,
    input: {} as ApplyInput,
  },
  actors: {
    saveDraft: fromPromise<SaveDraftOutput, SaveDraftInput>(notProvided),
    loadDraft: fromPromise<LoadDraftOutput, LoadDraftInput>(notProvided),
    // The signing machine, whose own actors (the API calls) the UI provides; it ends with the signature or null.
    signDocuments: signingMachine,
    submitApplication: fromPromise<SubmitApplicationOutput, SubmitApplicationInput>(notProvided),
  },
  delays: {
    autosaveDelay: AUTOSAVE_DELAY_MS,
    saveRetryDelay: SAVE_RETRY_MS,
  },
  guards: {
    isStepValid: ({ context: c }) => c.validate(c.stepIndex, c.answers).ok,
    areAllStepsValid: ({ context }) => areAllStepsValid(context),
    isLastFillStep: ({ context: c }) => !isFillStep(c.definition, c.stepIndex + 1),
    hasPreviousFillStep: ({ context: c }) => isFillStep(c.definition, c.stepIndex - 1),
    isReturningToPreview: ({ context }) => context.returnToPreview,
    isAtPreview: ({ context: c }) => c.stepIndex === indexOfStep(c.definition, 'preview'),
    isOtherStepRequested: ({ context, event }) =>
      event.type === 'step.goto' && event.step !== context.stepIndex + 1,
    isFillStepRequested: ({ context, event }) =>
      event.type === 'preview.change' && isFillStep(context.definition, event.step - 1),
    hasAllRequiredDocuments: ({ context }) => hasAllRequiredDocuments(context),
    canSaveForLater: ({ context }) => context.saveStatus !== 'stale' && context.saveError !== 'expired',
    isSavedForLater: ({ context }) => context.saveStatus === 'saved' && !context.dirty,
    hasSaveFailed: ({ context }) => context.saveStatus === 'stale' || context.saveStatus === 'error',
    hasUnsavedChanges: ({ context }) => context.dirty,
    isSavingForLater: stateIn('#apply.wizard.savingForLater'),
    isStale: ({ event }) => toSaveError(errorOf(event)).kind === 'stale',
    isExpired: ({ event }) => toSaveError(errorOf(event)).kind === 'expired',
    isDuplicate: ({ event }) => toSubmitError(errorOf(event)).kind === 'duplicate',
    isContactVerified: ({ context }) => context.contactVerified,
    isSigned: ({ event }) => outputOf<SignDocumentsOutput | null>(event) !== null,
  },
  actions: {
    assignAnswer: assign(({ context, event }) =>
      event.type === 'field.change'
        ? { answers: { ...context.answers, [event.id]: event.value }, dirty: true }
        : {},
    ),
    scheduleSave: enqueueActions(({ enqueue }) => enqueue.raise({ type: 'autosave.schedule' })),
    requestSave: enqueueActions(({ enqueue }) => {
      enqueue.assign({ dirty: true });
      enqueue.raise({ type: 'autosave.now' });
    }),
    nextStep: assign({ stepIndex: ({ context }) => context.stepIndex + 1 }),
    previousStep: assign({ stepIndex: ({ context }) => context.stepIndex - 1 }),
    lastFillStep: assign({
      stepIndex: ({ context: c }) => fillStepIndexes(c.definition).at(-1) ?? c.stepIndex,
    }),
    enterStep: assign(({ context }, params: { kind: 'preview' | 'upload' | 'success' }) => ({
      stepIndex: indexOfStep(context.definition, params.kind),
    })),
    assignRequestedStep: assign({
      stepIndex: ({ context, event }) =>
        event.type === 'step.goto' ? reachableStepIndex(context, event.step) : context.stepIndex,
    }),
    assignFurthestStep: assign({
      stepIndex: ({ context }) => reachableStepIndex(context, context.definition.steps.length),
    }),
    assignChangeStep: assign(({ event }) =>
      event.type === 'preview.change' ? { stepIndex: event.step - 1, returnToPreview: true } : {},
    ),
    clearReturn: assign({ returnToPreview: false }),
    revealErrors: assign({ errors: ({ context: c }) => c.validate(c.stepIndex, c.answers).errors }),
    clearErrors: assign({ errors: {} }),
    markSaving: assign({ saveStatus: 'saving', dirty: false }),
    assignSaved: assign(({ context, event }) => {
      const out = outputOf<SaveDraftOutput>(event);
      return {
        applicationNo: out.applicationNo,
        version: out.version,
        validUntil: out.validUntil,
        saveStatus: 'saved' as const,
        saveError: null,
        lastSavedAt: context.now(),
      };
    }),
    assignSaveError: assign(({ event }) => {
      const { kind } = toSaveError(errorOf(event));
      return {
        saveStatus: kind === 'stale' ? ('stale' as const) : ('error' as const),
        saveError: kind,
        dirty: true,
      };
    }),
    assignLoaded: assign(({ context, event }) => {
      const copy = outputOf<LoadDraftOutput>(event);
      return {
        answers: copy.answers,
        applicationNo: copy.applicationNo,
        version: copy.version,
        validUntil: copy.validUntil,
        saveStatus: 'saved' as const,
        saveError: null,
        lastSavedAt: context.now(),
        dirty: false,
        errors: {},
      };
    }),
    assignDocument: assign({
      documents: ({ context, event }) =>
        event.type === 'documents.change'
          ? { ...context.documents, [event.id]: event.present }
          : context.documents,
    }),
    revealDocumentErrors: assign({ showDocumentErrors: true }),
    clearDocumentErrors: assign({ showDocumentErrors: false }),
    clearSignature: assign({ signature: null, submitError: null, submitMessage: null }),
    assignSignature: assign({
      signature: ({ event }) => outputOf<SignDocumentsOutput | null>(event),
    }),
    // A confirmation clears the refusal's message; learning that none is confirmed yet keeps it.
    assignContact: assign(({ context, event }) =>
      event.type === 'contact.verified'
        ? { contactVerified: event.verified, showContactError: context.showContactError && !event.verified }
        : {},
    ),
    revealContactError: assign({ showContactError: true }),
    assignSubmission: assign({
      submission: ({ event }) => outputOf<SubmitApplicationOutput>(event),
      submitError: null,
      submitMessage: null,
    }),
    assignDuplicateSubmission: assign(({ context, event }) => {
      const error = toSubmitError(errorOf(event));
      const submittedAt = 'submittedAt' in error && error.submittedAt ? error.submittedAt : null;
      return {
        submission: {
          applicationNo: context.applicationNo ?? '',
          submittedAt: submittedAt ?? new Date(context.now()).toISOString(),
        },
        submitError: null,
        submitMessage: null,
      };
    }),
    assignSubmitError: assign(({ event }) => {
      const error = toSubmitError(errorOf(event));
      return {
        submitError: 'failed' as const,
        submitMessage: 'message' in error ? (error.message ?? null) : null,
      };
    }),
    clearSubmitError: assign({ submitError: null, submitMessage: null }),
  },
});
