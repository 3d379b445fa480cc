import type { CaseStatus } from './case-lifecycle';
import { addDays, isWorkingDay, type Holidays } from './working-days';

/**
 * The department's performance pledges (docs/decisions/044-pledges.md): each stage of an open case has a
 * deadline in Hong Kong working days, counted with the clock stopped while the department waits for the
 * applicant (an open request for further information, a Letter of Requirements awaiting compliance and the
 * inspection request). Settings here; pure functions, shared by the API and the console.
 */

/** Each pledge: working days of the department's time, counted from `from`. */
export const PLEDGES = {
  /** The officer's contact details to the applicant (spec §1: within 2 working days of submission). */
  contact: { workingDays: 2, from: 'submission' },
  /** Examination started (the case taken up after acknowledgement). */
  examination: { workingDays: 5, from: 'submission' },
  /** A Letter of Requirements (or a rejection) decided. */
  lor: { workingDays: 30, from: 'submission' },
  /** The requested inspection carried out. */
  inspection: { workingDays: 10, from: 'inspectionRequest' },
  /** The certificate (or a further Letter of Requirements) decided after the inspection. */
  certificate: { workingDays: 30, from: 'submission' },
} as const satisfies Record<string, { workingDays: number; from: 'submission' | 'inspectionRequest' }>;

export type PledgeKey = keyof typeof PLEDGES;
export const PLEDGE_KEYS = Object.keys(PLEDGES) as PledgeKey[];

/** The pledge the department works to in each open status; none while the applicant is to act. */
const PLEDGE_OF_STATUS: Partial<Record<CaseStatus, PledgeKey>> = {
  SUBMITTED: 'contact',
  ACKNOWLEDGED: 'examination',
  UNDER_EXAMINATION: 'lor',
  INSPECTION_REQUESTED: 'inspection',
  INSPECTION_SCHEDULED: 'inspection',
  INSPECTED: 'certificate',
};

export function pledgeOfStatus(status: CaseStatus): PledgeKey | null {
  return PLEDGE_OF_STATUS[status] ?? null;
}

/**
 * The statuses in which the department's clock is stopped: the applicant is to act (comply with a Letter
 * of Requirements, request the inspection), or the case is decided (a reopened or revoked case resumes).
 */
export const CLOCK_STOPPED_STATUSES: readonly CaseStatus[] = [
  'LOR_ISSUED',
  'COMPLIANCE_REPORTED',
  'CERTIFICATE_ISSUED',
  'CLOSED',
  'WITHDRAWN',
  'REJECTED',
];

/**
 * A span of waiting for the applicant, in Hong Kong dates: the days after `from` up to and including `to`
 * are the applicant's (the department's clock runs on the day the wait starts and resumes the day after it
 * ends). No `to`: still waiting.
 */
export interface WaitingSpan {
  from: string;
  to?: string;
}

export function isWaitingDay(day: string, spans: readonly WaitingSpan[]): boolean {
  return spans.some((s) => day > s.from && (s.to === undefined || day <= s.to));
}

/** The department's working days after `start` up to and including `end`: not holidays, not waiting. */
export function workingDaysElapsed(
  start: string,
  end: string,
  holidays: Holidays,
  spans: readonly WaitingSpan[] = [],
): number {
  let n = 0;
  for (let day = addDays(start, 1); day <= end; day = addDays(day, 1)) {
    if (isWorkingDay(day, holidays) && !isWaitingDay(day, spans)) n += 1;
  }
  return n;
}

/** The longest a due date is looked for, in calendar days (a safety bound: 30 working days are ~45). */
const SEARCH_DAYS = 3660;

/**
 * The day the department's `n`th working day after `start` falls on, or null while a still-open wait stops
 * the clock before it.
 */
export function pledgeDueDate(
  start: string,
  n: number,
  holidays: Holidays,
  spans: readonly WaitingSpan[] = [],
): string | null {
  let left = n;
  let day = start;
  for (let i = 0; i < SEARCH_DAYS; i += 1) {
    day = addDays(day, 1);
    if (spans.some((s) => s.to === undefined && day > s.from)) return null;
    if (isWorkingDay(day, holidays) && !isWaitingDay(day, spans)) left -= 1;
    if (left <= 0) return day;
  }
  return null;
}

/**
 * Where a case stands against a pledge on `today` (or when it was done on `done`):
 * `met` / `missed` once done; `due` (before the due date), `dueToday`, `overdue` (by `overdueBy` of the
 * department's working days, at least 1) or `paused` (the clock stopped: waiting for the applicant).
 */
export type PledgeState = 'met' | 'missed' | 'due' | 'dueToday' | 'overdue' | 'paused';

export interface PledgeStanding {
  pledge: PledgeKey;
  /** The due date (ISO, Hong Kong); null while paused. */
  due: string | null;
  state: PledgeState;
  /** Working days past the due date (overdue or missed), else 0. */
  overdueBy: number;
}

export function pledgeStanding(input: {
  pledge: PledgeKey;
  start: string;
  today: string;
  holidays: Holidays;
  spans?: readonly WaitingSpan[];
  /** The day the stage was done, if it was. */
  done?: string;
}): PledgeStanding {
  const { pledge, start, today, holidays, spans = [], done } = input;
  const n = PLEDGES[pledge].workingDays;
  const due = pledgeDueDate(start, n, holidays, done ? closeSpans(spans, done) : spans);
  const late = (end: string) => (due ? Math.max(1, workingDaysElapsed(due, end, holidays, spans)) : 0);
  if (done !== undefined) {
    const met = due === null || done <= due;
    return { pledge, due, state: met ? 'met' : 'missed', overdueBy: met ? 0 : late(done) };
  }
  if (due === null) return { pledge, due, state: 'paused', overdueBy: 0 };
  if (today < due) return { pledge, due, state: 'due', overdueBy: 0 };
  if (today === due) return { pledge, due, state: 'dueToday', overdueBy: 0 };
  return { pledge, due, state: 'overdue', overdueBy: late(today) };
}

/** Open spans ended on `day` (a stage done while a request was still open). */
const closeSpans = (spans: readonly WaitingSpan[], day: string): WaitingSpan[] =>
  spans.map((s) => (s.to === undefined ? { from: s.from, to: day } : s));

/**
 * The waiting spans of a case: from its status rows (history rows in date order, each with the status it
 * led to) the stretches in a clock-stopped status, and its requests for further information (asked on
 * `from`, answered or withdrawn on `to`). Dates are Hong Kong ISO dates.
 */
export function waitingSpans(
  statusRows: readonly { date: string; status: string }[],
  requests: readonly WaitingSpan[],
): WaitingSpan[] {
  const spans: WaitingSpan[] = [];
  let open: string | undefined;
  for (const row of statusRows) {
    const stopped = (CLOCK_STOPPED_STATUSES as readonly string[]).includes(row.status);
    if (stopped && open === undefined) open = row.date;
    else if (!stopped && open !== undefined) {
      spans.push({ from: open, to: row.date });
      open = undefined;
    }
  }
  if (open !== undefined) spans.push({ from: open });
  return [...spans, ...requests];
}

/** The months the performance page reports (docs/decisions/044-pledges.md), the current one last. */
export const PERFORMANCE_MONTHS = 6;

/** 200 of GET /api/staff/performance (senior officers, admins). */
export interface PerformanceData {
  /** Today in Hong Kong (ISO date). */
  today: string;
  /** Open cases by status now. */
  stages: { status: CaseStatus; count: number }[];
  /** By month (YYYY-MM, oldest first): stages done that month within their pledge, and late. */
  months: { month: string; pledges: Record<PledgeKey, { met: number; missed: number }> }[];
  /** Certificates issued in those months, and the median of their working days from submission. */
  certificates: { count: number; medianWorkingDays: number | null };
}

/** The last `n` months up to `today`'s, as YYYY-MM, oldest first. */
export function lastMonths(today: string, n = PERFORMANCE_MONTHS): string[] {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 1;
  return Array.from({ length: n }, (_, i) => {
    const m = year * 12 + month - (n - 1 - i);
    return `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

/** The median of numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
