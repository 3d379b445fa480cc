import { assign, enqueueActions, fromPromise, setup, stateIn } from 'xstate';
import { signingMachine } from '../signing.machine';
import type { SigningInput } from '../signing/types';
import {
  applyFailure,
  areAllStepsValid,
  fillStepIndexes,
  hasAllRequiredDocuments,
  indexOfStep,
  isErrorOf,
  isFillStep,
  reachableStepIndex,
  toSaveError,
  toSubmitError,
} from './steps';
import type {
  ApplyContext,
  CheckCaseInput,
  CheckCaseOutput,
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
/** How long leaving a `serverCheck` step waits for the first save to give the draft (and its token). */
export const CASE_CHECK_WAIT_MS = 10_000;

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
    serverErrors: {},
    saveRefusals: {},
    applicationNo: resume?.applicationNo ?? null,
    version: resume?.version ?? null,
    validUntil: resume?.validUntil ?? null,
    saveStatus: 'idle',
    saveError: null,
    saveMessage: null,
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
export const checkCaseInput = ({ context: c }: From): CheckCaseInput => {
  const step = c.definition.steps[c.stepIndex];
  return {
    applicationNo: c.applicationNo ?? '',
    fieldIds: step?.kind === 'fill' ? step.sections.flatMap((s) => s.fields.map((f) => f.id)) : [],
    answers: c.answers,
  };
};
/** The fill step holding a field (the first server error's step), else the current one. */
const stepOfField = (c: ApplyContext, fieldId: string | undefined) => {
  const at = c.definition.steps.findIndex(
    (s) => s.kind === 'fill' && s.sections.some((sec) => sec.fields.some((f) => f.id === fieldId)),
  );
  return at < 0 ? c.stepIndex : at;
};
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
    checkCase: fromPromise<CheckCaseOutput, CheckCaseInput>(notProvided),
    // The signing machine, whose own actors (the API calls) the UI provides; it ends with the signature or null.
    signDocuments: signingMachine,
    submitApplication: fromPromise<SubmitApplicationOutput, SubmitApplicationInput>(notProvided),
  },
  delays: {
    autosaveDelay: AUTOSAVE_DELAY_MS,
    saveRetryDelay: SAVE_RETRY_MS,
    caseCheckWait: CASE_CHECK_WAIT_MS,
  },
  guards: {
    isStepValid: ({ context: c }) => c.validate(c.stepIndex, c.answers).ok,
    isServerCheckedStep: ({ context: c }) => {
      const step = c.definition.steps[c.stepIndex];
      return step?.kind === 'fill' && step.serverCheck === true;
    },
    hasDraft: ({ context }) => context.applicationNo !== null,
    isCaseRefused: ({ event }) => Object.keys(outputOf<CheckCaseOutput>(event).errors).length > 0,
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
    isRefused: ({ event }) => toSaveError(errorOf(event)).kind === 'refused',
    isDuplicate: ({ event }) => toSubmitError(errorOf(event)).kind === 'duplicate',
    isContactVerified: ({ context }) => context.contactVerified,
    isSigned: ({ event }) => outputOf<SignDocumentsOutput | null>(event) !== null,
  },
  actions: {
    assignAnswer: assign(({ context, event }) =>
      event.type === 'field.change'
        ? {
            answers: { ...context.answers, [event.id]: event.value },
            dirty: true,
            // A changed answer is asked again (on leaving the step, on the next save): its refusal no
            // longer stands, nor that of any of its parts.
            serverErrors: Object.fromEntries(
              Object.entries(context.serverErrors).filter(([path]) => !isErrorOf(path, event.id)),
            ),
            saveRefusals: Object.fromEntries(
              Object.entries(context.saveRefusals).filter(([path]) => !isErrorOf(path, event.id)),
            ),
          }
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
    clearErrors: assign({ errors: {}, serverErrors: {} }),
    assignServerErrors: assign(({ context, event }) => {
      const { errors, answers } = outputOf<CheckCaseOutput>(event);
      const stepIndex = stepOfField(context, Object.keys(errors)[0]);
      // The letter refreshed as issued now: saved with the draft like any change.
      return answers
        ? { serverErrors: errors, stepIndex, answers: { ...context.answers, ...answers }, dirty: true }
        : { serverErrors: errors, stepIndex };
    }),
    markSaving: assign({ saveStatus: 'saving', dirty: false }),
    assignSaved: assign(({ context, event }) => {
      const out = outputOf<SaveDraftOutput>(event);
      return {
        applicationNo: out.applicationNo,
        version: out.version,
        validUntil: out.validUntil,
        saveStatus: 'saved' as const,
        saveError: null,
        saveMessage: null,
        saveRefusals: {},
        lastSavedAt: context.now(),
      };
    }),
    assignSaveError: assign(({ event }) => {
      const error = toSaveError(errorOf(event));
      const { kind } = error;
      return {
        saveStatus: kind === 'stale' ? ('stale' as const) : ('error' as const),
        saveError: kind,
        saveMessage: error.kind === 'refused' ? (error.message ?? null) : null,
        dirty: true,
        // A refused save: its messages at the answers it names (docs/flows/apply.md, "Autosave").
        saveRefusals: error.kind === 'refused' ? error.errors : {},
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
        saveMessage: null,
        lastSavedAt: context.now(),
        dirty: false,
        errors: {},
        serverErrors: {},
        saveRefusals: {},
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
