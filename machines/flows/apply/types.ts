import type { FormDefinition } from '../../forms/types';

/**
 * The types of the application wizard (apply.machine.ts): its input, context and events, and the inputs,
 * outputs and errors of the actors the UI provides over the API. Step numbers (`step`) are 1-based, as in
 * the route `/form-<slug>-step<n>`; step indexes (`stepIndex`) are 0-based positions in `definition.steps`.
 */

/** The answers of a draft, keyed by field id: the catalogue's one Answers type. */
import type { Answers } from '../../forms/fields';
import type { SigningInput, SigningOutput } from '../signing/types';

/** Field id -> i18n message key, in the order of the form (the error summary's order). */
export type FieldErrors = Readonly<Record<string, string>>;

export interface StepValidation {
  ok: boolean;
  errors: FieldErrors;
}

/** Validates one fill step (`stepIndex` into `definition.steps`); the UI passes the zod schema's. */
export type ValidateStep = (stepIndex: number, answers: Answers) => StepValidation;

/** A draft as the API returns it: what `resume` starts from and what `loadDraft` loads. */
export interface DraftCopy {
  applicationNo: string;
  version: number;
  /** ISO date-time until which the draft is kept (14 days from the last save). */
  validUntil: string;
  /** The step number (1-based) the applicant was on. */
  step: number;
  answers: Answers;
}

export interface ApplyInput {
  definition: FormDefinition;
  /** The clock (ms epoch), for `lastSavedAt`; no wall clock hides in the machine. */
  now: () => number;
  validate: ValidateStep;
  /** A saved draft to continue (after the retrieval code and the one-time code). */
  resume?: DraftCopy;
}

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'stale' | 'error';

// ---- Actors: inputs, outputs and the errors they reject with (`kind`) ----

/** POST /api/drafts (applicationNo null: create) or PUT /api/drafts/:applicationNo with the version. */
export interface SaveDraftInput {
  formCode: string;
  applicationNo: string | null;
  version: number | null;
  step: number;
  answers: Answers;
}
export interface SaveDraftOutput {
  applicationNo: string;
  version: number;
  validUntil: string;
}
/**
 * 409 -> stale (nothing overwritten), 410 -> expired; another 4xx -> refused: the portal was reached and
 * said what is wrong (`errors`: answer path below `answers`, dotted as `minorWorks.0.description` -> the
 * message in the page's language; `message` when no field is named); no answer at all -> network.
 */
export type SaveDraftError =
  | { kind: 'stale' }
  | { kind: 'expired' }
  | { kind: 'network' }
  | { kind: 'refused'; errors: Readonly<Record<string, string>>; message?: string };

/**
 * POST /api/drafts/:applicationNo/check-case on leaving a step marked `serverCheck` (docs/flows/apply.md):
 * the step's field ids tell the UI what to send (the certifier only from the step holding it).
 */
export interface CheckCaseInput {
  applicationNo: string;
  fieldIds: readonly string[];
  answers: Answers;
}
/** Field id -> the API's refusal, already in the page's language; empty when the case takes the form. */
export interface CheckCaseOutput {
  errors: Readonly<Record<string, string>>;
  /**
   * Answers the API's refusal brings up to date: the Letter of Requirements as the department issued it
   * now (`lorRevised`, docs/flows/case-rules.md), its reference, date and items, each unchanged item's
   * compliance kept.
   */
  answers?: Answers;
}

export interface LoadDraftInput {
  applicationNo: string;
}
export type LoadDraftOutput = DraftCopy;
export type LoadDraftError = { kind: 'expired' } | { kind: 'network' };

/**
 * The signing slot is the signing machine (signing.machine.ts: iAM Smart with its D70004 / D70005
 * branches, or e-Cert): its input, and its output — the signature, or null when the applicant went back.
 */
export type SignDocumentsInput = SigningInput;
export type SignDocumentsOutput = SigningOutput;

export interface SubmitApplicationInput {
  applicationNo: string;
  version: number | null;
  /** The signature the submission rests on: also what makes the idempotency key of its retries. */
  reference: string;
}
export interface SubmitApplicationOutput {
  applicationNo: string;
  /** ISO date-time. */
  submittedAt: string;
}
/**
 * `duplicate`: the application was already submitted (a retried request); treated as submitted.
 * `failed`: not submitted; `message` is the server's reason in the page's language, when it gave one.
 */
export type SubmitApplicationError =
  { kind: 'duplicate'; submittedAt?: string } | { kind: 'failed'; message?: string };

// ---- Context and events ----

export interface ApplyContext {
  definition: FormDefinition;
  now: () => number;
  validate: ValidateStep;
  answers: Answers;
  /** The current step (0-based index into `definition.steps`); its route is `/form-<slug>-step<stepIndex + 1>`. */
  stepIndex: number;
  /** Set by "Change" on the preview: `step.next` (or back) returns straight to the preview. */
  returnToPreview: boolean;
  /** The current fill step's errors, set when `step.next` was refused (empty otherwise). */
  errors: FieldErrors;
  /** The API's refusal on leaving a `serverCheck` step: field id -> message text (empty otherwise). */
  serverErrors: Readonly<Record<string, string>>;
  /**
   * The last autosave's refusal (a 4xx naming answers), shown at the answers without taking focus: the
   * answer's path (`applicantNameEn`, or dotted to a part, `minorWorks.0.description`) -> message text.
   */
  saveRefusals: Readonly<Record<string, string>>;
  applicationNo: string | null;
  version: number | null;
  validUntil: string | null;
  /** The saved indicator (announced politely) and what went wrong with the last save or load. */
  saveStatus: SaveStatus;
  saveError: SaveDraftError['kind'] | null;
  /** A refused save's reason when it named no answer (a request too large ...), in the page's language. */
  saveMessage: string | null;
  lastSavedAt: number | null;
  /** Answers or the step changed since the last save was sent. */
  dirty: boolean;
  /** Document id -> present, as the upload screen reports them. */
  documents: Readonly<Record<string, boolean>>;
  /** `documents.complete` was refused: the screen lists the missing required documents. */
  showDocumentErrors: boolean;
  /** The applicant's email or mobile has been confirmed by a one-time code (required to leave the preview). */
  contactVerified: boolean;
  /** `step.next` on the preview was refused because no contact is confirmed yet. */
  showContactError: boolean;
  signature: { method: 'iamsmart' | 'ecert'; reference: string } | null;
  submitError: 'failed' | null;
  /** The server's reason for the last failed submission, when it gave one. */
  submitMessage: string | null;
  submission: SubmitApplicationOutput | null;
}

export type ApplyEvent =
  | { type: 'field.change'; id: string; value: unknown }
  | { type: 'step.next' }
  | { type: 'step.back' }
  | { type: 'history.back' }
  /** A typed URL or deep link: `step` is the route's step number. */
  | { type: 'step.goto'; step: number }
  /** "Change" on the preview: `step` is the step number of the section's fill step. */
  | { type: 'preview.change'; step: number }
  | { type: 'draft.save' }
  | { type: 'draft.reload' }
  | { type: 'saved.continue' }
  | { type: 'saved.exit' }
  | { type: 'documents.change'; id: string; present: boolean }
  | { type: 'documents.complete' }
  /** The preview's contact confirmation tells whether a contact is confirmed. */
  | { type: 'contact.verified'; verified: boolean }
  /** Sign again (after signing, before submitting). */
  | { type: 'sign.start' }
  | { type: 'submit.confirm' }
  /** Raised by the machine itself (never sent by the UI): a change to save after the debounce, a step change to save now. */
  | { type: 'autosave.schedule' }
  | { type: 'autosave.now' };

/** What a screen state carries in `meta` (templates resolved by `screenOf`). */
export interface ApplyStateMeta {
  /** The kind of step the screen is; `saved` shows on the route of the fill step it was saved from. */
  screen?: 'fill' | 'preview' | 'upload' | 'success' | 'saved';
  /** `/form-{slug}-step{fill}` ...: the definition's slug and the number of the current fill step or of the fixed step. */
  route?: string;
  /** An i18n key; `{step.titleKey}` is the current fill step's own title key. */
  titleKey?: string;
  busy?: boolean;
}
