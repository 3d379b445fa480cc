/**
 * The types of the case action machine (machines/flows/case-action.machine.ts): its input, what its actors
 * receive and answer, and the failures a submission may end with. The UI's actors (ui/flows/case) and the
 * path tests import them from the machine, which re-exports them.
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
      prefill: Record<string, unknown>;
      /** The case's information now (its version and answers): what an update form starts from. */
      information?: CaseInformation;
      /** When this form is not for the case but another one is (the centre's update form): its route. */
      elsewhere?: string;
      /** The department's open request for further information this follow-up answers (`?request=`). */
      request?: InformationRequest;
      calendar: CaseCalendar;
    };

/** A request for further information of the department: the document types it asks for. */
export interface InformationRequest {
  id: number;
  documentTypes: string[];
  /** The officer's description of the "Other" document asked for. */
  otherDocument?: string | null;
}

/** A version of the case's information (api/modules/cases/case-versions.ts). */
export interface CaseInformation {
  version: number;
  answers: Record<string, unknown>;
}

/** A file uploaded for a follow-up (its upload step), as the server answered it. */
export interface CaseUpload {
  id: number;
  documentType: string;
  fileName: string;
}

export interface SubmitActionInput {
  answers: Record<string, unknown>;
  idempotencyKey: string;
  /** The files of the upload step, by id (forms with one). */
  uploads?: number[];
  /** The reference of the signing of the answers and files (forms with a sign step). */
  signature?: string;
  /** The version of the case's information the form was opened on (the update forms). */
  baseVersion?: number;
  /** The department's request for further information it answers. */
  requestId?: number;
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
  /** The signature is missing or no longer matches the answers and files: sign again. */
  | { kind: 'unsigned'; message: string }
  /** The case's information changed since the form was opened: this is how it is now. */
  | { kind: 'stale'; information: CaseInformation; message: string }
  | { kind: 'loggedOut' }
  | { kind: 'failed'; message: string }
  | { kind: 'network' };

export interface CaseActionInput {
  /** Whether the form has a preview step. */
  hasPreview: boolean;
  /** Whether the form has an upload step (after fill) and a sign step (after the preview). */
  hasUpload?: boolean;
  hasSign?: boolean;
  /**
   * The form's schema, with the calendar, the case's form (an update form takes its sections) and the
   * information the form was opened on: true when the answers may be submitted.
   */
  validate: (answers: Record<string, unknown>, against: ValidationContext) => boolean;
  /** A fresh key for this flow's submission (made by the caller; the machine makes nothing random). */
  idempotencyKey: string;
  /** Answers kept from before a reload (the page's): the form starts from them instead of the prefill. */
  initialAnswers?: Record<string, unknown>;
}

export interface ValidationContext {
  calendar: CaseCalendar;
  formCode: string;
  base: Record<string, unknown> | null;
}
