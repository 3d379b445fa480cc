import type { ApplicantWordsData } from './staff-words';
import type { DocumentReviewData } from './document-review';
import type { CaseDecisionsData } from './proposals';
import { z } from 'zod';
import type { ActivityKind } from './staff-inbox';
import { CASE_STATUSES, type CaseStatus } from './case-lifecycle';
import { isIsoDate } from './working-days';
import type { PledgeStanding } from './pledges';
import { parseBdReference } from './bd-reference';
import { MINOR_WORKS_MAX_ROWS, minorWorksRowSchema } from './minor-works';
import { charLabel, firstUnprintable } from './printable';

/**
 * The department's console (docs/decisions/022-case-officer-console.md): staff roles, the
 * sign-in, the work queue's rules and the bodies of the console's actions. Shared by the API and the
 * console's screens; codes, never text.
 */

export const STAFF_ROLES = ['caseOfficer', 'seniorOfficer', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Working days after submission within which the officer's contact details go to the applicant (spec §1). */
export const CONTACT_DUE_WORKING_DAYS = 2;

/** A staff session ends after this many idle minutes (master data `staff_idle_minutes` overrides). */
export const STAFF_IDLE_MINUTES = 15;
/** ... and at most this long after sign-in. */
export const STAFF_SESSION_HOURS = 10;

const invalid = { error: 'staff.invalid' } as const;
const required = { error: 'staff.required' } as const;
/** An officer's text: trimmed, within its length, only characters the letters can print (the error names
 * the first other one: never a 500 at the letter; line breaks and tabs allowed). */
export const text = (max: number) =>
  z
    .string(invalid)
    .trim()
    .min(1, required)
    .max(max, invalid)
    .superRefine((value, ctx) => {
      const char = firstUnprintable(value.replace(/[\r\n\t]/g, ''));
      if (char !== undefined)
        ctx.addIssue({ code: 'custom', message: 'staff.unprintable', params: { char: charLabel(char) } });
    });
const isoDate = z.string(invalid).refine(isIsoDate, { error: 'staff.date' });

const items = z.array(text(1000), invalid).max(50, invalid);
const requestId = z.number(invalid).int(invalid).positive(invalid);

/**
 * The code of "Other" among a request's document types (as the applicant's Submit Supporting Document
 * names it, machines/forms/follow-up/submit-document.ts); the officer describes it in `otherDocument`.
 */
export const OTHER_DOCUMENT = 'other';
/** The longest description of an "Other" document (as the applicant's description of one). */
export const OTHER_DOCUMENT_MAX = 200;

/** Plain text: one line of characters that print (no control or format characters, no markup). */
const plainText = (max: number) =>
  text(max).refine((v) => firstUnprintable(v) === undefined && !/[\r\n<>]/.test(v), {
    error: 'staff.plainText',
  });

/**
 * The console's actions, by lifecycle event. Every body names the status the officer saw
 * (`expectedStatus`): when the case moved meanwhile the answer is 409 and nothing is written.
 */
export const CONSOLE_ACTION_SCHEMAS = {
  'case.assign': z.object({ staffId: z.number(invalid).int().positive() }),
  'case.acknowledge': z.object({}),
  'case.examine': z.object({}),
  'lor.issue': z
    .object({
      // The rule of BD's file references, shared with the self-certification forms (decision 021).
      bdReference: text(40)
        .refine((v) => parseBdReference(v) !== undefined, invalid)
        .transform((v) => parseBdReference(v)?.value ?? v),
      date: isoDate,
      category1: items,
      category2: items,
      minorWorks: z.array(minorWorksRowSchema, invalid).max(MINOR_WORKS_MAX_ROWS, invalid),
    })
    .refine((v) => v.category1.length + v.category2.length + v.minorWorks.length > 0, {
      error: 'staff.lorEmpty',
      path: ['category1'],
    }),
  'compliance.record': z.object({ note: text(1000).optional() }),
  'inspection.schedule': z.object({
    date: isoDate,
    window: z.enum(['AM', 'PM'], invalid),
    officerId: z.number(invalid).int().positive(),
  }),
  'inspection.reschedule': z.object({
    date: isoDate,
    window: z.enum(['AM', 'PM'], invalid),
    officerId: z.number(invalid).int().positive(),
    reason: text(1000),
  }),
  'inspection.cancel': z.object({ reason: text(1000) }),
  'inspection.record': z.object({ result: z.enum(['PASS', 'FAIL'], invalid), note: text(1000).optional() }),
  'certificate.issue': z.object({
    kind: z.enum(['CERTIFICATE', 'NOTICE'], invalid),
    remarks: text(1000).optional(),
  }),
  'case.reject': z.object({ reason: text(1000) }),
  'case.close': z.object({}),
  'lor.withdraw': z.object({ reason: text(1000) }),
  'certificate.revoke': z.object({ reason: text(1000) }),
  'case.reopen': z.object({ reason: text(1000) }),
  'information.request': z
    .object({
      // Codes of the case's form's document list, or OTHER_DOCUMENT (the API checks them against the
      // list: docs/console.md).
      documentTypes: z
        .array(z.string(invalid).regex(/^[A-Za-z0-9]{1,40}$/, invalid), invalid)
        .max(20, invalid),
      /** What "Other" asks for, in the officer's words: plain text, required when Other is chosen. */
      otherDocument: plainText(OTHER_DOCUMENT_MAX).optional(),
      note: text(1000).optional(),
      replyBy: isoDate,
    })
    .refine((v) => v.documentTypes.length > 0 || v.note !== undefined, {
      error: 'staff.requestEmpty',
      path: ['documentTypes'],
    })
    .refine((v) => !v.documentTypes.includes(OTHER_DOCUMENT) || v.otherDocument !== undefined, {
      error: 'staff.otherDocumentRequired',
      path: ['otherDocument'],
    })
    .refine((v) => v.documentTypes.includes(OTHER_DOCUMENT) || v.otherDocument === undefined, {
      error: 'staff.otherDocumentUnchosen',
      path: ['otherDocument'],
    }),
  'information.extend': z.object({ requestId: requestId, replyBy: isoDate, reason: text(1000).optional() }),
  'information.withdraw': z.object({ requestId: requestId, reason: text(1000).optional() }),
  'message.send': z.object({ body: text(2000) }),
} as const;

export type ConsoleEvent = keyof typeof CONSOLE_ACTION_SCHEMAS;
export const CONSOLE_EVENTS = Object.keys(CONSOLE_ACTION_SCHEMAS) as ConsoleEvent[];

export function isConsoleEvent(value: unknown): value is ConsoleEvent {
  return typeof value === 'string' && value in CONSOLE_ACTION_SCHEMAS;
}

/**
 * The i18n key of an event or a notice (keys cannot hold dots): `lor.issue` → `lorIssue`, as the console's
 * `events.<key>` and the API's `staff.notice.<key>` name them.
 */
export const eventKey = (event: string) => event.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());

/** PUT /api/staff/settings (admin): master data of the console. */
export const staffSettingsSchema = z.object({
  staffIdleMinutes: z.number(invalid).int(invalid).min(1, invalid).max(60, invalid),
});
export type StaffSettings = z.infer<typeof staffSettingsSchema>;

export interface StaffAccountData {
  id: number;
  username: string;
  role: StaffRole;
  nameEn: string;
  nameZh: string;
  active: boolean;
}

/** POST /api/cases/current/messages: the applicant's message to the case officer. */
export const caseMessageSchema = z.object({ body: text(2000) });

/** POST …/proposals/:id/send-back: the senior officer's note to the proposer (docs/decisions/040-four-eyes-decisions.md). */
export const proposalNoteSchema = z.object({ note: text(1000) });

/** POST /api/staff/cases/:applicationNo/notes: an internal note, never shown to the applicant or the AP. */
export const internalNoteSchema = z.object({ body: text(2000) });

/** Every action's envelope: the status the officer saw and the action's own fields. */
export const consoleActionBodySchema = z.object({
  expectedStatus: z.enum(CASE_STATUSES, invalid),
  answers: z.record(z.string(), z.unknown()),
});

// ---- Answers of the console API -------------------------------------------------------------------

export interface StaffMe {
  id: number;
  username: string;
  role: StaffRole;
  nameEn: string;
  nameZh: string;
  postEn: string;
  postZh: string;
  idleMinutes: number;
  /** A new TOTP is to be enrolled before anything else (docs/decisions/036-staff-administration.md). */
  totpPending: boolean;
}

export interface StaffSummary {
  id: number;
  nameEn: string;
  nameZh: string;
  role: StaffRole;
}

export interface QueueRow {
  applicationNo: string;
  formCode: string;
  status: CaseStatus;
  applicantName: string | null;
  submittedAt: string;
  /** The due date of the contact details (ISO date, Hong Kong), 2 working days after submission. */
  contactDue: string;
  /** Contact details not sent and the due date has passed. */
  overdue: boolean;
  officer: StaffSummary | null;
  /** An information request past its reply-by date and unanswered. */
  requestOverdue: boolean;
  /** The premises address in English, as submitted. */
  premisesAddress: string | null;
  /** Not open any more (certificate issued, closed, withdrawn, rejected): listed after the open cases. */
  finished: boolean;
  /**
   * What the applicant or AP/RSE did since the signed-in officer last opened the case, newest first
   * ("New activity", docs/decisions/039-officer-inbox.md); empty when nothing. On the queue page only.
   */
  activity?: ActivityKind[];
  /** The current stage's performance pledge: due date and met / due / overdue (docs/decisions/044-pledges.md);
   * null when the department has none now (the applicant is to act, or the case is decided). */
  pledge: PledgeStanding | null;
}

/** GET /api/staff/cases: a page of the work queue, by due date, and how many cases the filters find. */
export interface QueuePage {
  cases: QueueRow[];
  /** The officers the queue can be filtered by (active case officers and senior officers), by name. */
  officers: StaffSummary[];
  total: number;
  page: number;
  pageSize: number;
}

export interface CaseVersionData {
  version: number;
  answers: Record<string, unknown>;
  createdAt: string;
  reference: string | null;
  submittedBy: string;
  changes: { field: string; before: unknown; after: unknown }[];
}

export interface InformationRequestData {
  id: number;
  /** Codes of the case's form's document list (`forms:documents.<code>`), and OTHER_DOCUMENT. */
  documentTypes: string[];
  /** The officer's description of the "Other" document, when asked for. */
  otherDocument: string | null;
  note: string | null;
  replyBy: string;
  createdAt: string;
  answeredAt: string | null;
  /** Withdrawn by the department: no longer asked for. */
  withdrawnAt: string | null;
  /** The reply-by dates before each extension, oldest first. */
  earlierReplyBy: string[];
  overdue: boolean;
}

export interface CaseMessageData {
  id: number;
  sender: string;
  body: string;
  createdAt: string;
}

export interface AuditRowData {
  id: number;
  at: string;
  actor: string;
  actorRef: string;
  event: string;
  applicationNo: string | null;
  reference: string | null;
  before: unknown;
  after: unknown;
  /** The address the action came from (none: the portal's own scheduled work). */
  address: string | null;
  /** The id of the request that made it (its X-Request-Id, in the server's logs too). */
  requestId: string | null;
  /** The names of the staff it names (its actor, officers in its fields), by account id. */
  people: Record<string, { nameEn: string; nameZh: string }>;
}

export interface ConsoleCaseData extends QueueRow, CaseDecisionsData {
  formKey: string | null;
  language: string;
  email: string | null;
  mobile: string | null;
  /** The events this officer may send now (the lifecycle's, and assignment rules). */
  allowed: ConsoleEvent[];
  /** What the case's rules decide on (docs/flows/case-rules.md): the inspection, the applicant's dates. */
  rules: {
    inspection: { date: string; result: 'PASS' | 'FAIL' | null } | null;
    preferredDates: string[];
    /** The earliest reply-by date a request may give today. */
    earliestReplyBy: string;
    /** The applicant's latest inspection request: whom to meet on site, the dates asked for, access. */
    inspectionRequest: {
      reference: string;
      preferredDates: string[];
      contactName: string | null;
      contactTelephone: string | null;
      accessNotes: string | null;
    } | null;
  };
  versions: CaseVersionData[];
  history: {
    id: number;
    documentType: string;
    status: string;
    submittedBy: string;
    date: string;
    reference: string | null;
    /** A revised layout plan's revision label. */
    revision: string | null;
    /** What the applicant, AP or RSE wrote with this submission or follow-up, as written; null for none. */
    words: ApplicantWordsData | null;
  }[];
  /**
   * The case's documents, oldest first: `historyId` the submission or follow-up they came with (null: none
   * known), `typeKey` the i18n key (namespace `forms`) of the document type's name in the catalogue of the
   * case's form, null when the catalogue has none (the signed form, "Other": its description is in `words`).
   */
  documents: {
    id: number;
    kind: string;
    typeKey: string | null;
    historyId: number | null;
    fileName: string;
    bytes: number | null;
    createdAt: string;
    /** The newest review (docs/decisions/043-document-review.md); null: not reviewed. */
    review: DocumentReviewData | null;
  }[];
  /** The signed-in officer may review the case's documents (assigned to them, or a senior officer). */
  mayReview: boolean;
  signature: { method: string; signer: unknown; completedAt: string | null } | null;
  /** The signature each signed follow-up rests on, by its reference, oldest first. */
  followUpSignatures: { reference: string; method: string; signer: unknown; submittedAt: string }[];
  requests: InformationRequestData[];
  /**
   * The document types an information request may name for this case: its form's documents and
   * OTHER_DOCUMENT, each with the i18n key of its label (namespace `forms`).
   */
  requestableDocuments: { value: string; labelKey: string }[];
  /** The messages, each with the language of its text as its characters show (`WrittenText.lang`). */
  messages: (CaseMessageData & { lang: string | null })[];
  audit: AuditRowData[];
  staff: StaffSummary[];
  calendar: { today: string; holidays: string[] };
}

/** 200 of an action. */
export interface ConsoleActionResult {
  applicationNo: string;
  event: ConsoleEvent;
  status: CaseStatus;
  reference: string;
}

/** A member of staff as the applicant is told of them: name, post, telephone and email. */
export interface StaffContact {
  nameEn: string;
  nameZh: string;
  postEn: string;
  postZh: string;
  telephone: string;
  email: string;
}

/** The officer's contact details as the applicant's case page shows them. */
export interface OfficerContact extends StaffContact {
  sentAt: string;
}
