import { and, not, or } from 'xstate';
import { routeTemplate, STEP_TITLE } from './apply/steps';
import {
  applySetup,
  checkCaseInput,
  initialContext,
  loadDraftInput,
  saveDraftInput,
  signDocumentsInput,
  submitApplicationInput,
} from './apply/setup';
import type { ApplyStateMeta } from './apply/types';

/**
 * The application wizard (spec §2, docs/flows/apply.md): one machine for every application and self-certification
 * form, parameterised by its FormDefinition (input). Fill steps -> preview -> upload (documents -> sign ->
 * submitting) -> success, with save for later -> saved (retrieval code) -> exit or continue, and resume
 * from a draft. A parallel `autosave` region saves the draft after typing stops and on every step change,
 * so saving never blocks typing. The API calls are the actors `saveDraft`, `loadDraft`, `signDocuments`
 * and `submitApplication`, which the UI provides with `applyMachine.provide({ actors })`; validation is
 * `input.validate` (the zod schema derived from the definition). Diagram and rules: docs/flows/apply.md.
 */

const screen = (kind: NonNullable<ApplyStateMeta['screen']>, titleKey: string): ApplyStateMeta => ({
  screen: kind,
  route: routeTemplate(kind === 'saved' ? 'fill' : kind),
  titleKey,
});
/** A typed URL or deep link to another step: the requested step if reachable, else the furthest reachable. */
const gotoStep = {
  guard: 'isOtherStepRequested',
  target: '#apply.wizard.fill',
  actions: ['assignRequestedStep', 'clearReturn', 'clearErrors', 'requestSave'],
} as const;
/** Back from a fill step: to the preview when "Change" brought the applicant here, else the previous fill step. */
const backFromFill = [
  {
    guard: 'isReturningToPreview',
    target: '#apply.wizard.preview',
    actions: ['clearErrors', 'clearReturn', 'requestSave'],
  },
  {
    guard: 'hasPreviousFillStep',
    target: '#apply.wizard.fill',
    actions: ['previousStep', 'clearErrors', 'requestSave'],
  },
] as const;
/** On from a fill step whose answers are valid (and, for a `serverCheck` step, taken by the API). */
const moveOn = [
  {
    guard: or(['isReturningToPreview', 'isLastFillStep']),
    target: '#apply.wizard.preview',
    actions: ['clearErrors', 'clearReturn', 'requestSave'],
  },
  { target: '#apply.wizard.fill', actions: ['nextStep', 'clearErrors', 'requestSave'] },
] as const;
const backToDocuments = { target: '#apply.wizard.upload.documents', actions: 'clearSignature' } as const;
const at = (kind: 'preview' | 'upload' | 'success') => ({ type: 'enterStep', params: { kind } }) as const;

export const applyMachine = applySetup.createMachine({
  id: 'apply',
  type: 'parallel',
  context: initialContext,
  states: {
    wizard: {
      initial: 'fill',
      states: {
        fill: {
          meta: screen('fill', STEP_TITLE),
          // A resume or a typed URL that lands on the preview passes through here.
          always: { guard: 'isAtPreview', target: 'preview' },
          on: {
            'field.change': { actions: ['assignAnswer', 'scheduleSave'] },
            'step.next': [
              { guard: not('isStepValid'), actions: 'revealErrors' },
              // The case a self-certification names (and its certifier): asked before moving on.
              { guard: 'isServerCheckedStep', target: 'checking', actions: ['clearErrors', 'requestSave'] },
              ...moveOn,
            ],
            'step.back': backFromFill,
            // The browser's back button is the Back button.
            'history.back': backFromFill,
            'step.goto': gotoStep,
            'draft.save': { guard: 'canSaveForLater', target: 'savingForLater' },
          },
        },
        // Leaving a `serverCheck` step: the API's answer first (docs/flows/apply.md). The check needs the
        // draft's token, so it waits for the first save; a save that never comes, or a check that fails
        // (network, rate limit), lets the person on: signing and submission check again.
        checking: {
          meta: { ...screen('fill', STEP_TITLE), busy: true },
          initial: 'awaitingDraft',
          states: {
            awaitingDraft: {
              always: { guard: 'hasDraft', target: 'asking' },
              after: { caseCheckWait: moveOn },
            },
            asking: {
              invoke: {
                id: 'checkCase',
                src: 'checkCase',
                input: checkCaseInput,
                onDone: [
                  { guard: 'isCaseRefused', target: '#apply.wizard.fill', actions: 'assignServerErrors' },
                  ...moveOn,
                ],
                onError: moveOn,
              },
            },
          },
        },
        savingForLater: {
          meta: { ...screen('fill', STEP_TITLE), busy: true },
          always: [
            { guard: 'isSavedForLater', target: 'saved' },
            { guard: 'hasSaveFailed', target: 'fill' },
          ],
        },
        saved: {
          meta: screen('saved', 'flows:saved.title'),
          on: {
            'saved.continue': 'fill',
            'history.back': 'fill',
            'saved.exit': 'exited',
          },
        },
        exited: { type: 'final' },
        preview: {
          meta: screen('preview', 'flows:steps.preview.title'),
          entry: at('preview'),
          on: {
            'step.next': [
              {
                guard: and(['areAllStepsValid', 'isContactVerified']),
                target: 'upload',
                actions: 'requestSave',
              },
              { guard: 'areAllStepsValid', actions: 'revealContactError' },
              { target: 'fill', actions: ['assignFurthestStep', 'revealErrors', 'requestSave'] },
            ],
            'contact.verified': { actions: 'assignContact' },
            'step.back': { target: 'fill', actions: ['lastFillStep', 'requestSave'] },
            'history.back': { target: 'fill', actions: ['lastFillStep', 'requestSave'] },
            'preview.change': {
              guard: 'isFillStepRequested',
              target: 'fill',
              actions: ['assignChangeStep', 'requestSave'],
            },
            'step.goto': gotoStep,
          },
        },
        upload: {
          meta: screen('upload', 'flows:steps.upload.title'),
          entry: at('upload'),
          initial: 'documents',
          states: {
            documents: {
              on: {
                'documents.change': { actions: 'assignDocument' },
                'documents.complete': [
                  { guard: 'hasAllRequiredDocuments', target: 'sign', actions: 'clearDocumentErrors' },
                  { actions: 'revealDocumentErrors' },
                ],
                'step.back': { target: '#apply.wizard.preview', actions: 'requestSave' },
                'history.back': { target: '#apply.wizard.preview', actions: 'requestSave' },
                'step.goto': gotoStep,
              },
            },
            sign: {
              initial: 'signing',
              states: {
                // Busy: the back button and typed URLs wait until signing ends (the signing screen has its own Back).
                signing: {
                  meta: { busy: true },
                  // The signing machine (iAM Smart / e-Cert): its output is the signature, or null for "back".
                  invoke: {
                    id: 'signDocuments',
                    src: 'signDocuments',
                    input: signDocumentsInput,
                    onDone: [
                      { guard: 'isSigned', target: 'signed', actions: 'assignSignature' },
                      { target: '#apply.wizard.upload.documents', actions: 'clearSignature' },
                    ],
                  },
                },
                signed: {
                  on: {
                    'submit.confirm': {
                      target: '#apply.wizard.upload.submitting',
                      actions: 'clearSubmitError',
                    },
                    'sign.start': { target: 'signing', actions: 'clearSignature' },
                    'step.back': backToDocuments,
                    'history.back': backToDocuments,
                    'step.goto': gotoStep,
                  },
                },
              },
            },
            submitting: {
              meta: { busy: true },
              invoke: {
                id: 'submitApplication',
                src: 'submitApplication',
                input: submitApplicationInput,
                onDone: { target: '#apply.wizard.success', actions: 'assignSubmission' },
                onError: [
                  {
                    guard: 'isDuplicate',
                    target: '#apply.wizard.success',
                    actions: 'assignDuplicateSubmission',
                  },
                  { target: 'sign.signed', actions: 'assignSubmitError' },
                ],
              },
            },
          },
        },
        success: {
          meta: screen('success', 'flows:steps.success.title'),
          entry: at('success'),
          type: 'final',
        },
      },
    },
    autosave: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'autosave.schedule': 'debouncing', 'autosave.now': 'saving', 'draft.save': 'saving' },
        },
        debouncing: {
          after: { autosaveDelay: 'saving' },
          on: {
            'autosave.schedule': { target: 'debouncing', reenter: true },
            'autosave.now': 'saving',
            'draft.save': 'saving',
          },
        },
        saving: {
          entry: 'markSaving',
          invoke: {
            id: 'saveDraft',
            src: 'saveDraft',
            input: saveDraftInput,
            onDone: [
              // Save for later waits for this save: what changed meanwhile is saved at once, not after the debounce.
              {
                guard: and(['hasUnsavedChanges', 'isSavingForLater']),
                target: 'saving',
                reenter: true,
                actions: 'assignSaved',
              },
              { guard: 'hasUnsavedChanges', target: 'debouncing', actions: 'assignSaved' },
              { target: 'idle', actions: 'assignSaved' },
            ],
            onError: [
              { guard: 'isStale', target: 'stale', actions: 'assignSaveError' },
              { guard: 'isExpired', target: 'expired', actions: 'assignSaveError' },
              { guard: 'isRefused', target: 'refused', actions: 'assignSaveError' },
              { target: 'failed', actions: 'assignSaveError' },
            ],
          },
        },
        // The portal could not be reached: tried again later, and at the next change.
        failed: {
          after: { saveRetryDelay: 'saving' },
          on: { 'autosave.schedule': 'debouncing', 'autosave.now': 'saving', 'draft.save': 'saving' },
        },
        // 4xx: the portal said what is wrong (at the answers). The same answers would be refused again, so
        // nothing is retried until the person changes something.
        refused: {
          on: { 'autosave.schedule': 'debouncing', 'autosave.now': 'saving', 'draft.save': 'saving' },
        },
        // 409: nothing was overwritten; the answers stay as typed and the screen offers the newer copy.
        stale: { on: { 'draft.reload': 'reloading' } },
        reloading: {
          invoke: {
            id: 'loadDraft',
            src: 'loadDraft',
            input: loadDraftInput,
            onDone: { target: 'idle', actions: 'assignLoaded' },
            onError: [
              { guard: 'isExpired', target: 'expired', actions: 'assignSaveError' },
              { target: 'stale' },
            ],
          },
        },
        // 410: the draft is gone; the screen says so and nothing is saved any more.
        expired: {},
      },
    },
  },
});
