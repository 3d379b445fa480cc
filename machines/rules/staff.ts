import { z } from 'zod';
import { CASE_STATUSES, type CaseStatus } from './case-lifecycle';
import { isIsoDate } from './working-days';
import { parseBdReference } from './bd-reference';
import { MINOR_WORKS_MAX_ROWS, minorWorksRowSchema } from './minor-works';

/**
 * The department's console (docs/decisions/022-case-officer-console.md): staff roles, the
 * sign-in, the work queue's rules and the bodies of the console's actions. Shared by the API and the
 * console's screens; codes, never text.
 */

export const STAFF_ROLES = ['caseOfficer', 'seniorOfficer', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Working days after submission within which the officer's contact details go to the applicant (spec §1). */
export const CONTACT_DUE_WORKING_DAYS = 2;

/** Failed sign-ins of one account within LOCKOUT_SECONDS before it is locked for LOCKOUT_SECONDS. */
export const SIGN_IN_ATTEMPTS = 5;
export const LOCKOUT_SECONDS = 15 * 60;
/** A staff session ends after this many idle minutes (master data `staff_idle_minutes` overrides). */
export const STAFF_IDLE_MINUTES = 15;
/** ... and at most this long after sign-in. */
export const STAFF_SESSION_HOURS = 10;

const invalid = { error: 'staff.invalid' } as const;
const required = { error: 'staff.required' } as const;
const text = (max: number) => z.string(invalid).trim().min(1, required).max(max, invalid);
const isoDate = z.string(invalid).refine(isIsoDate, { error: 'staff.date' });

/** POST /api/staff/session: the password and a 6-digit TOTP code, or a recovery code instead. */
export const signInSchema = z.object({
  username: z.string(invalid).trim().toLowerCase().min(1, required).max(64, invalid),
  password: z.string(invalid).min(1, required).max(256, invalid),
  code: z
    .string(invalid)
    .trim()
    .min(1, required)
    .regex(/^(\d{6}|[a-z0-9]{5}-[a-z0-9]{5})$/i, invalid),
});
export type SignIn = z.infer<typeof signInSchema>;

/** GET /api/staff/cases?status=&form=&officer= */
export const queueQuerySchema = z.object({
  status: z.enum(CASE_STATUSES, invalid).optional(),
  form: z
    .string(invalid)
    .regex(/^[A-Z0-9-]{1,20}$/, invalid)
    .optional(),
  /** A staff id, or 'me', or 'none' (unassigned). */
  officer: z
    .string(invalid)
    .regex(/^(\d{1,9}|me|none)$/, invalid)
    .optional(),
  /** One case by its application number (any case of letters). */
  applicationNo: z
    .string(invalid)
    .trim()
    .regex(/^[A-Za-z0-9-]{1,40}$/, invalid)
    .transform((v) => v.toUpperCase())
    .optional(),
  /** The page of the queue, from 1 ({@link QUEUE_PAGE_SIZE} cases a page). */
  page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100_000, invalid).optional(),
});

/** Cases on a page of the work queue. */
export const QUEUE_PAGE_SIZE = 50;
export type QueueQuery = z.infer<typeof queueQuerySchema>;

const items = z.array(text(1000), invalid).max(50, invalid);

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
  'inspection.record': z.object({ result: z.enum(['PASS', 'FAIL'], invalid), note: text(1000).optional() }),
  'certificate.issue': z.object({
    kind: z.enum(['CERTIFICATE', 'NOTICE'], invalid),
    remarks: text(1000).optional(),
  }),
  'case.reject': z.object({ reason: text(1000) }),
  'case.close': z.object({}),
  'information.request': z
    .object({
      documentTypes: z
        .array(z.string(invalid).regex(/^[A-Za-z0-9]{1,40}$/, invalid), invalid)
        .max(20, invalid),
      note: text(1000).optional(),
      replyBy: isoDate,
    })
    .refine((v) => v.documentTypes.length > 0 || v.note !== undefined, {
      error: 'staff.requestEmpty',
      path: ['documentTypes'],
    }),
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
}

/** GET /api/staff/cases: a page of the work queue, by due date, and how many cases the filters find. */
export interface QueuePage {
  cases: QueueRow[];
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
  documentTypes: string[];
  note: string | null;
  replyBy: string;
  createdAt: string;
  answeredAt: string | null;
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
  /** The address the action came from (staff actions). */
  address: string | null;
}

export interface ConsoleCaseData extends QueueRow {
  formKey: string | null;
  language: string;
  email: string | null;
  mobile: string | null;
  /** The events this officer may send now (the lifecycle's, and assignment rules). */
  allowed: ConsoleEvent[];
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
  }[];
  documents: { id: number; kind: string; fileName: string; bytes: number | null; createdAt: string }[];
  signature: { method: string; signer: unknown; completedAt: string | null } | null;
  /** The signature each signed follow-up rests on, by its reference, oldest first. */
  followUpSignatures: { reference: string; method: string; signer: unknown; submittedAt: string }[];
  requests: InformationRequestData[];
  messages: CaseMessageData[];
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
