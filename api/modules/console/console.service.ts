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
  type QueuePage,
} from '../../../machines/rules/staff';
import type { QueueQuery } from '../../../machines/rules/staff-queue';
import { hongKongDate } from '../../../machines/rules/working-days';
import { earliestReplyBy, type LifecycleFacts } from '../../../machines/rules/case-rules';
import type { DocumentStorage } from '../../adapters/storage';
import type { Clock } from '../../clock';
import { ForbiddenError, NotFoundError } from '../../http/errors';
import { OPEN_FACTS } from '../../../machines/flows/case-lifecycle.machine';
import { isDecisionEvent } from '../../../machines/rules/proposals';
import { CODES, ownFacts } from './action-codes';
import { caseDecisions } from './proposals';
import { notesOf } from './internal-notes';
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
  staffById,
  caseFacts,
  latestInspectionRequest,
  messagesOf,
  requestsOf,
  latestReviews,
  refusalError,
} from '../cases';
import type { StaffSession } from '../auth';
import { sendConsoleNotice } from './console-notices';
import { runCaseAction } from '../cases';
import { issueEffects, type Effects } from './console-effects';
import { CaseChangedError, lastChangeBy, officerChange } from './case-changed';
import { createQueueReader, staffSummary } from './console-queue';
import { queueCsv } from './console-csv';
import * as repo from './console.repo';
import { underAnswers } from '../../http/field-errors';
import { documentTypesFor } from '../../../machines/forms/follow-up/submit-document';
import { documentTypeKey, textLanguage, wordsOf } from './applicant-words';
import { withPeople } from './audit-people';
import { createDocumentReview } from './document-review';

/**
 * The case officer console (docs/decisions/022-case-officer-console.md): the work queue with
 * the contact details' due dates, a case with everything about it, and the actions, each a transition of
 * the case lifecycle (never a status written by hand) made in one transaction under the case's row lock:
 * the action, the new status, the history row, what was issued, and the audit event with the officer,
 * role and address. Every action names the status the officer saw: if the case moved meanwhile (another
 * officer acted first) the answer is 409 CASE_CHANGED and nothing is written.
 */

export interface ConsoleService {
  queue(session: StaffSession, query: QueueQuery): Promise<QueuePage>;
  /** The queue as a CSV file, every case the filters find (docs/console.md, "The work queue"). */
  queueCsv(session: StaffSession, query: QueueQuery, language: Language): AsyncIterable<string>;
  view(session: StaffSession, applicationNo: string): Promise<ConsoleCaseData>;
  act(
    session: StaffSession,
    applicationNo: string,
    event: string,
    body: { expectedStatus: CaseStatus; answers: Record<string, unknown> },
    context: { language: Language; address: string; idempotencyKey?: string; approval?: Approval },
  ): Promise<ConsoleActionResult>;
  document(
    session: StaffSession,
    applicationNo: string,
    documentId: number,
  ): Promise<{ storageKey: string; fileName: string }>;
  /** An officer's review of a document (docs/decisions/043-document-review.md). */
  review: ReturnType<typeof createDocumentReview>;
  audit(query: {
    applicationNo?: string;
    actorRef?: string;
    event?: string;
    from?: Date;
  }): Promise<ConsoleCaseData['audit']>;
}

/**
 * The approval of a proposal a decision is made on (api/modules/console/proposals.ts): checked and marked
 * approved under the case's lock, in the decision's transaction.
 */
export interface Approval {
  proposalId: number;
  guard: (tx: Db) => Promise<void>;
  write: (tx: Db, reference: string) => Promise<Record<string, unknown>>;
}

/** An audit event as the console shows it. */
function auditRow({
  event: a,
  applicationNo,
}: Awaited<ReturnType<typeof repo.auditOf>>[number]): Omit<AuditRowData, 'people'> {
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
    requestId: a.requestId,
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

  const { rowsOf, queue, allRows } = createQueueReader({ db, clock, calendar });

  /** May this officer act on the case (assigned to them, or a senior officer)? */
  const mayAct = (staff: StaffAccountRow, assignedTo: number | null | undefined) =>
    staff.role === 'seniorOfficer' || (staff.role === 'caseOfficer' && assignedTo === staff.id);

  function allowedFor(
    staff: StaffAccountRow,
    status: CaseStatus,
    assignedTo: number | null,
    facts: LifecycleFacts,
  ): ConsoleEvent[] {
    const actor = actorOf(staff);
    if (!actor) return [];
    const events = allowedEvents(status, { actor, facts });
    return CONSOLE_EVENTS.filter((e) => {
      if (!(events as string[]).includes(e)) return false;
      if (e === 'case.assign') return staff.role === 'seniorOfficer' || assignedTo === null;
      return mayAct(staff, assignedTo);
    });
  }

  return {
    queue,
    queueCsv: (session, query, language) => queueCsv(allRows(session, query), language),

    async view(session, applicationNo) {
      const application = await repo.applicationByNo(db, applicationNo);
      if (!application) throw new NotFoundError('case.notFound');
      const {
        rows: [row],
      } = await rowsOf(eq(applications.id, application.id));
      if (!row) throw new NotFoundError('case.notFound');
      const [
        history,
        documents,
        submitted,
        requests,
        messages,
        audit,
        staff,
        versions,
        revisions,
        signed,
        facts,
        followUps,
      ] = await Promise.all([
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
        caseFacts(db, application, clock.now()),
        repo.partyFollowUpsOf(db, application.id),
      ]);
      const reviews = await latestReviews(db, application.id, documents);
      // What the parties wrote, by the reference of the follow-up (and so of its history row).
      const words = new Map(followUps.map((f) => [f.reference, wordsOf(f)]));
      const inspectionRequest = await latestInspectionRequest(db, application.id);
      const today = hongKongDate(clock.now());
      const { id: _id, staffId, ...queueRow } = row;
      const decisions = await caseDecisions(db, row, session.staff, mayAct(session.staff, staffId), facts);
      return {
        ...queueRow,
        formKey: submitted?.formKey ?? null,
        language: application.language,
        email: application.email,
        mobile: application.mobile,
        // A decision of two people is proposed and approved (`proposable`, `awaitingMe`), never sent directly.
        allowed: allowedFor(session.staff, row.status, staffId, facts).filter((e) => !isDecisionEvent(e)),
        ...decisions,
        notes: await notesOf(db, application.id),
        // What the case's rules decide on, so the officer sees why an action is not offered.
        rules: {
          inspection: facts.inspection,
          preferredDates: [...facts.preferredDates],
          earliestReplyBy: earliestReplyBy(facts),
          inspectionRequest,
        },
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
          words: (h.reference && words.get(h.reference)) || null,
        })),
        // Each by its type's name in the catalogue, with the submission or follow-up it came with.
        documents: documents.map((d) => ({
          id: d.id,
          kind: d.kind,
          typeKey: documentTypeKey(application.formCode, d.kind),
          historyId: d.historyId,
          fileName: d.fileName,
          bytes: d.bytes,
          createdAt: d.createdAt.toISOString(),
          review: reviews.get(d.id) ?? null,
        })),
        mayReview: actorOf(session.staff) !== null && mayAct(session.staff, staffId),
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
        // What an information request may name: the case's form's documents and "Other".
        requestableDocuments: documentTypesFor(application.formCode),
        // As written, with the language of the text (a party's message is in the case's language, mostly).
        messages: messages.map((m) => ({
          ...messageData(m),
          lang: textLanguage(m.body, application.language),
        })),
        audit: await withPeople(db, audit.map(auditRow)),
        staff: staff.filter((s) => s.role !== 'admin').map(staffSummary),
        calendar: calendar.window(),
      };
    },

    async act(session, applicationNo, eventName, body, { language, address, idempotencyKey, approval }) {
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
      // A decision of two people is made only on the approval of its proposal (docs/decisions/040-four-eyes-decisions.md).
      // (Refused as the lifecycle would without a proposal: the status or role first, then the rule.)
      if (isDecisionEvent(event) && !approval) {
        const status = isCaseStatus(found.status) ? found.status : 'SUBMITTED';
        throw refusalError(status, event, { actor, facts: { ...OPEN_FACTS, proposal: null } }, language);
      }
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
        staffRef: `staff:${staff.id}`,
        own: ownFacts(answers),
        language,
        now,
        address,
        guard: async (tx, application, before) => {
          if (before !== body.expectedStatus)
            throw new CaseChangedError(before, language, await lastChangeBy(tx, application.id));
          // Under the lock: an assignment made meanwhile by another officer counts, naming who took it.
          current = await assignmentOf(tx, application.id);
          if (event === 'case.assign' && staff.role !== 'seniorOfficer' && current) {
            const taker = await staffById(tx, current.staffId);
            throw new CaseChangedError(
              before,
              language,
              taker ? officerChange(taker) : { kind: 'caseOfficer' },
            );
          }
          if (event !== 'case.assign' && !mayAct(staff, current?.staffId)) throw new ForbiddenError();
          await approval?.guard(tx);
        },
        write: async ({ tx, application, reference, actionId, historyId, facts }) => {
          const extra = await issueEffects(
            {
              tx,
              storage: deps.storage,
              now,
              staff,
              application,
              reference,
              historyId,
              actionId,
              current,
              facts,
            },
            event,
            answers,
          );
          notice = extra.notice;
          const approved = approval ? { approval: await approval.write(tx, reference) } : {};
          return {
            auditBefore: { assignedTo: current?.staffId ?? null },
            auditAfter: { ...extra.audit, ...approved },
          };
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

    review: createDocumentReview(deps, mayAct),

    async audit(query) {
      const rows = await repo.auditOf(db, repo.auditFilter(query), 500);
      return withPeople(db, rows.map(auditRow));
    },
  };
}
