import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import { applications } from '../../../drizzle/schema';
import type { StaffAccountRow } from '../../../drizzle/schema-staff';
import { allowedEvents } from '../../../machines/flows/case-lifecycle.machine';
import {
  isCaseStatus,
  transitionOf,
  type CaseActor,
  type CaseStatus,
} from '../../../machines/rules/case-lifecycle';
import type { Language } from '../../../machines/rules/language';
import {
  CONSOLE_ACTION_SCHEMAS,
  CONSOLE_EVENTS,
  type AuditRowData,
  type ConsoleActionResult,
  type ConsoleCaseData,
  type ConsoleEvent,
  type QueueQuery,
  type QueuePage,
} from '../../../machines/rules/staff';
import { hongKongDate } from '../../../machines/rules/working-days';
import type { DocumentStorage } from '../../adapters/storage';
import type { Clock } from '../../clock';
import { ApiError, ForbiddenError, NotFoundError } from '../../http/errors';
import { translate } from '../../http/i18n';
import type { CalendarService, MessageService } from '../shared';
import {
  documentOf,
  documentsOf,
  historyOf,
  layoutPlanRevisions,
  listCaseVersions,
  messageData,
  requestData,
  assignmentOf,
  messagesOf,
  requestsOf,
} from '../cases';
import type { StaffSession } from '../auth';
import { sendConsoleNotice } from './console-notices';
import { runCaseAction } from '../cases';
import { issueEffects, type Effects } from './console-effects';
import { createQueueReader, staffSummary } from './console-queue';
import * as repo from './console.repo';
import { underAnswers } from '../../http/field-errors';

/**
 * The case officer console (docs/decisions/022-case-officer-console.md): the work queue with
 * the contact details' due dates, a case with everything about it, and the actions, each a transition of
 * the case lifecycle (never a status written by hand) made in one transaction under the case's row lock:
 * the action, the new status, the history row, what was issued, and the audit event with the officer,
 * role and address. Every action names the status the officer saw: if the case moved meanwhile (another
 * officer acted first) the answer is 409 CASE_CHANGED and nothing is written.
 */

/** 409 CASE_CHANGED: the case is no longer in the status the officer saw (names the status now). */
export class CaseChangedError extends ApiError {
  constructor(status: string, language: Language) {
    super(
      409,
      'CASE_CHANGED',
      'staff.changed',
      { status },
      { params: { status: translate(language, `case.statuses.${status}`) } },
    );
  }
}

/** A retry's answer: nothing more was done. */

const CODES: Record<ConsoleEvent, string> = {
  'case.assign': 'ASG',
  'case.acknowledge': 'ACK',
  'case.examine': 'EXM',
  'lor.issue': 'LOR',
  'compliance.record': 'CMP',
  'inspection.schedule': 'ISN',
  'inspection.record': 'IRP',
  'certificate.issue': 'CRT',
  'case.reject': 'REJ',
  'case.close': 'CLS',
  'information.request': 'RFI',
  'message.send': 'MSG',
};

export interface ConsoleService {
  queue(session: StaffSession, query: QueueQuery): Promise<QueuePage>;
  view(session: StaffSession, applicationNo: string): Promise<ConsoleCaseData>;
  act(
    session: StaffSession,
    applicationNo: string,
    event: string,
    body: { expectedStatus: CaseStatus; answers: Record<string, unknown> },
    context: { language: Language; address: string; idempotencyKey?: string },
  ): Promise<ConsoleActionResult>;
  document(
    session: StaffSession,
    applicationNo: string,
    documentId: number,
  ): Promise<{ storageKey: string; fileName: string }>;
  audit(query: {
    applicationNo?: string;
    actorRef?: string;
    event?: string;
    from?: Date;
  }): Promise<ConsoleCaseData['audit']>;
}

/** An audit event as the console shows it. */
function auditRow({
  event: a,
  applicationNo,
}: Awaited<ReturnType<typeof repo.auditOf>>[number]): AuditRowData {
  return {
    id: a.id,
    at: a.at.toISOString(),
    actor: a.actor,
    actorRef: a.actorRef,
    event: a.event,
    applicationNo,
    reference: a.reference,
    before: a.before,
    after: a.after,
    address: a.address,
  };
}

/** The staff role as the lifecycle's actor (admins do not act on cases). */
function actorOf(staff: StaffAccountRow): CaseActor | null {
  return staff.role === 'caseOfficer' || staff.role === 'seniorOfficer' ? staff.role : null;
}

export function createConsoleService(deps: {
  db: Db;
  clock: Clock;
  calendar: CalendarService;
  messages: MessageService;
  storage: DocumentStorage;
  logger: Logger;
}): ConsoleService {
  const { db, clock, calendar } = deps;

  const { rowsOf, queue } = createQueueReader({ db, clock, calendar });

  /** May this officer act on the case (assigned to them, or a senior officer)? */
  const mayAct = (staff: StaffAccountRow, assignedTo: number | null | undefined) =>
    staff.role === 'seniorOfficer' || (staff.role === 'caseOfficer' && assignedTo === staff.id);

  function allowedFor(staff: StaffAccountRow, status: CaseStatus, assignedTo: number | null): ConsoleEvent[] {
    const actor = actorOf(staff);
    if (!actor) return [];
    const events = allowedEvents(status, actor);
    return CONSOLE_EVENTS.filter((e) => {
      if (!(events as string[]).includes(e)) return false;
      if (e === 'case.assign') return staff.role === 'seniorOfficer' || assignedTo === null;
      return mayAct(staff, assignedTo);
    });
  }

  return {
    queue,

    async view(session, applicationNo) {
      const application = await repo.applicationByNo(db, applicationNo);
      if (!application) throw new NotFoundError('case.notFound');
      const {
        rows: [row],
      } = await rowsOf(eq(applications.id, application.id));
      if (!row) throw new NotFoundError('case.notFound');
      const [history, documents, submitted, requests, messages, audit, staff, versions, revisions, signed] =
        await Promise.all([
          historyOf(db, application.id),
          documentsOf(db, application.id),
          repo.submissionOf(db, application.id),
          requestsOf(db, application.id),
          messagesOf(db, application.id),
          repo.auditOf(db, eq(applications.id, application.id)),
          repo.staffList(db),
          listCaseVersions(db, application.id),
          layoutPlanRevisions(db, application.id),
          repo.followUpSignaturesOf(db, application.id),
        ]);
      const today = hongKongDate(clock.now());
      const { id: _id, staffId, ...queueRow } = row;
      return {
        ...queueRow,
        formKey: submitted?.formKey ?? null,
        language: application.language,
        email: application.email,
        mobile: application.mobile,
        allowed: allowedFor(session.staff, row.status, staffId),
        // Every version of the case's information with what changed (the update forms, case-versions.ts).
        versions,
        history: history.map((h) => ({
          id: h.id,
          documentType: h.documentType,
          status: h.status,
          submittedBy: h.submittedBy,
          date: h.date.toISOString(),
          reference: h.reference,
          revision: (h.reference && revisions.get(h.reference)) ?? null,
        })),
        documents: documents.map((d) => ({
          id: d.id,
          kind: d.kind,
          fileName: d.fileName,
          bytes: d.bytes,
          createdAt: d.createdAt.toISOString(),
        })),
        signature: submitted
          ? {
              method: submitted.method,
              signer: submitted.signer,
              completedAt: submitted.completedAt?.toISOString() ?? null,
            }
          : null,
        // The signatures of the follow-ups (supporting documents, revised layout plans), as verified.
        followUpSignatures: signed.map((f) => ({
          reference: f.reference,
          method: f.method,
          signer: f.signer,
          submittedAt: f.submittedAt.toISOString(),
        })),
        requests: requests.map((r) => requestData(r, today)),
        messages: messages.map(messageData),
        audit: audit.map(auditRow),
        staff: staff.filter((s) => s.role !== 'admin').map(staffSummary),
        calendar: calendar.window(),
      };
    },

    async act(session, applicationNo, eventName, body, { language, address, idempotencyKey }) {
      const staff = session.staff;
      const actor = actorOf(staff);
      if (!actor) throw new ForbiddenError();
      const known = CONSOLE_EVENTS.find((e) => e === eventName);
      if (!known) throw new NotFoundError('case.unknownAction');
      const event: ConsoleEvent = known;
      // A case officer may act only on a case assigned to them: the same 403 whether or not it exists.
      const found = await repo.applicationByNo(db, applicationNo);
      const assignment = found ? await assignmentOf(db, found.id) : undefined;
      const selfAssign = event === 'case.assign' && !assignment && body.answers.staffId === staff.id;
      if ((!found && staff.role !== 'seniorOfficer') || (!mayAct(staff, assignment?.staffId) && !selfAssign))
        throw new ForbiddenError();
      if (!found) throw new NotFoundError('case.notFound');
      const parsed = CONSOLE_ACTION_SCHEMAS[event].safeParse(body.answers);
      if (!parsed.success) throw underAnswers(parsed.error);
      const answers = parsed.data as Record<string, unknown>;
      const key = idempotencyKey ?? randomBytes(16).toString('hex');
      const now = clock.now();
      const transition = transitionOf(event);

      let current: Awaited<ReturnType<typeof assignmentOf>>;
      let notice: Effects['notice'];
      const outcome = await runCaseAction(db, {
        applicationNo,
        event,
        formKey: event,
        code: CODES[event],
        idempotencyKey: key,
        answers,
        actor,
        actorRef: `staff:${staff.id}`,
        language,
        now,
        address,
        guard: async (tx, application, before) => {
          if (before !== body.expectedStatus) throw new CaseChangedError(before, language);
          // Under the lock: an assignment made meanwhile by another officer counts.
          current = await assignmentOf(tx, application.id);
          if (event === 'case.assign' && staff.role !== 'seniorOfficer' && current)
            throw new CaseChangedError(before, language);
          if (event !== 'case.assign' && !mayAct(staff, current?.staffId)) throw new ForbiddenError();
        },
        write: async ({ tx, application, reference, actionId, historyId }) => {
          const extra = await issueEffects(
            { tx, storage: deps.storage, now, staff, application, reference, historyId, actionId, current },
            event,
            answers,
          );
          notice = extra.notice;
          return { auditBefore: { assignedTo: current?.staffId ?? null }, auditAfter: extra.audit };
        },
      });
      if (outcome.made && transition.notifies.includes('applicant') && notice)
        await sendConsoleNotice(deps, outcome.application, event, notice);
      return {
        applicationNo: outcome.application.applicationNo,
        event,
        status: isCaseStatus(outcome.row.statusAfter) ? outcome.row.statusAfter : 'SUBMITTED',
        reference: outcome.row.reference,
      };
    },

    async document(session, applicationNo, documentId) {
      const application = await repo.applicationByNo(db, applicationNo);
      if (!application) throw new NotFoundError('case.documentNotFound');
      const row = await documentOf(db, application.id, documentId);
      if (!row) throw new NotFoundError('case.documentNotFound');
      void session;
      return { storageKey: row.storageKey, fileName: `${application.applicationNo} ${row.fileName}` };
    },

    async audit(query) {
      const rows = await repo.auditOf(db, repo.auditFilter(query), 500);
      return rows.map(auditRow);
    },
  };
}
