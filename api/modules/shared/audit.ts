import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request, RequestHandler, Response } from 'express';
import { eq, sql } from 'drizzle-orm';
import { ZodError } from 'zod';
import type { Db } from '../../../drizzle/db';
import { applications } from '../../../drizzle/schema';
import type { Clock } from '../../clock';
import { ApiError } from '../../http/errors';

/**
 * The audit log's one recorder (docs/decisions/033-audit-log.md). Every row goes through the SQL
 * function `audit_append` (the application's role may not INSERT): who (`actor`: the role; `actorRef`:
 * an id), what (an action code), when, from where (req.ip) and in which request (req.id, the answer's
 * X-Request-Id). Ids only: never a name, an HKIC, an email address or a mobile number.
 */

/** A row of the log as a service writes it, in its own transaction. */
export interface AuditRow {
  at: Date;
  /** The role: applicant, ap, rse, caseOfficer, seniorOfficer, admin, anonymous, system. */
  actor: string;
  /** `session:<id>`, `staff:<id>`, `draft:<id>`, `anonymous`, `system`. */
  actorRef: string;
  event: string;
  applicationId?: number | null;
  reference?: string | null;
  before?: unknown;
  after?: unknown;
  /** Default: the current request's address (none outside a request: a job). */
  address?: string | null;
  /** Default: the current request's id. */
  requestId?: string | null;
}

export interface AuditActor {
  role: string;
  ref: string;
}

/** What a route records: the action, what it is about, and (when the route knows better) who. */
export interface AuditEntry {
  action: string;
  caseId?: number | null;
  /** The case's or draft's number, when the route has no id (looked up; unknown numbers give none). */
  caseNo?: string | null;
  reference?: string | null;
  /** `ok` (the default) or `refused` with the error's code. */
  outcome?: 'ok' | 'refused';
  /** Ids and codes only. */
  detail?: Readonly<Record<string, string | number | boolean | null>>;
  actor?: AuditActor;
}

interface RequestTrace {
  db: Db;
  clock: Clock;
  requestId: string | null;
  address: string | null;
}

const traces = new AsyncLocalStorage<RequestTrace>();
const traceOfRequest = new WeakMap<Request, RequestTrace>();

/** First under /api: the request's id and address for every audit row it leads to. */
export function auditTrace(db: Db, clock: Clock): RequestHandler {
  return (req, _res, next) => {
    const id: unknown = req.id;
    const trace: RequestTrace = {
      db,
      clock,
      requestId: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
      address: req.ip ?? req.socket.remoteAddress ?? null,
    };
    traceOfRequest.set(req, trace);
    traces.run(trace, next);
  };
}

/** Appends one row through `audit_append`, in the caller's transaction when given one. */
export async function appendAudit(tx: Pick<Db, 'execute'>, row: AuditRow): Promise<void> {
  const trace = traces.getStore();
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  await tx.execute(sql`select audit_append(
    ${row.at.toISOString()}::timestamptz, ${row.actor}, ${row.actorRef}, ${row.event},
    ${row.applicationId ?? null}::integer, ${row.reference ?? null}, ${json(row.before)}::jsonb,
    ${json(row.after)}::jsonb, ${row.address === undefined ? (trace?.address ?? null) : row.address},
    ${row.requestId === undefined ? (trace?.requestId ?? null) : row.requestId})`);
}

interface StaffLocal {
  staff: { id: number; role: string };
}
interface SessionLocal {
  id: number;
  role: string;
  applicationId: number;
}
interface DraftLocal {
  id: number;
  applicationNo: string;
}

/** Who made the request, from what the authentication middlewares left in `res.locals`. */
function actorOf(res: Response | undefined): AuditActor {
  const locals = (res?.locals ?? {}) as { staff?: StaffLocal; session?: SessionLocal; draft?: DraftLocal };
  if (locals.staff) return { role: locals.staff.staff.role, ref: `staff:${locals.staff.staff.id}` };
  if (locals.session) {
    const role =
      locals.session.role === 'ap' || locals.session.role === 'rse' ? locals.session.role : 'applicant';
    return { role, ref: `session:${locals.session.id}` };
  }
  if (locals.draft) return { role: 'applicant', ref: `draft:${locals.draft.id}` };
  return { role: 'anonymous', ref: 'anonymous' };
}

/** The case of an applicant's or AP's session; the number of a draft (a draft is no case yet). */
function subjectOf(res: Response | undefined): { caseId: number | null; reference: string | null } {
  const locals = (res?.locals ?? {}) as { session?: SessionLocal; draft?: DraftLocal };
  return { caseId: locals.session?.applicationId ?? null, reference: locals.draft?.applicationNo ?? null };
}

/** Records what the request did (one row, its own statement). */
export async function record(req: Request, entry: AuditEntry): Promise<void> {
  const trace = traceOfRequest.get(req);
  if (!trace) throw new Error('audit: the request has no trace (auditTrace is not mounted)');
  const subject = subjectOf(req.res);
  let caseId = entry.caseId === undefined ? subject.caseId : entry.caseId;
  if (entry.caseNo) {
    const [found] = await trace.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.applicationNo, entry.caseNo));
    caseId = found?.id ?? null;
  }
  const actor = entry.actor ?? actorOf(req.res);
  const detail = { outcome: entry.outcome ?? 'ok', ...entry.detail };
  await appendAudit(trace.db, {
    at: trace.clock.now(),
    actor: actor.role,
    actorRef: actor.ref,
    event: entry.action,
    applicationId: caseId,
    reference: entry.reference ?? subject.reference,
    after: detail,
    address: trace.address,
    requestId: trace.requestId,
  });
}

/** The code an error answers with, for the record of a refusal. */
function codeOf(error: unknown): string {
  if (error instanceof ApiError) return error.code;
  if (error instanceof ZodError) return 'BAD_REQUEST';
  return 'ERROR';
}

/**
 * Runs `work` and records `action`: `ok` with what `describe` adds, or `refused` with the error's code
 * (the error then goes on to the error handler as before).
 */
export async function audited<T>(
  req: Request,
  action: string,
  work: () => Promise<T>,
  describe: (result: T) => Omit<AuditEntry, 'action'> | Promise<Omit<AuditEntry, 'action'>> = () => ({}),
  onRefusal: Omit<AuditEntry, 'action'> = {},
): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await record(req, { ...onRefusal, action, outcome: 'refused', detail: { code: codeOf(error) } });
    throw error;
  }
  await record(req, { action, ...(await describe(result)) });
  return result;
}
