import type { Db } from '../../../drizzle/db';
import type { InformationRequestRow } from '../../../drizzle/schema-staff';
import { partyQuery, requireAllowed } from './case-facts';
import { isCaseStatus, submitterOf, type CaseActor } from '../../../machines/rules/case-lifecycle';
import type { Language } from '../../../machines/rules/language';
import type { CaseMessageData, InformationRequestData, OfficerContact } from '../../../machines/rules/staff';
import { NotFoundError } from '../../http/errors';
import * as cases from './cases.repo';
import * as repo from './case-messages.repo';
import type { AuthSession } from '../auth';
import type { CaseActionEffect } from './cases.service';
import { fieldError } from '../../http/field-errors';

/** A request for further information as both sides see it: overdue when unanswered past its date. */
export function requestData(r: InformationRequestRow, today: string): InformationRequestData {
  return {
    id: r.id,
    documentTypes: r.documentTypes,
    otherDocument: r.otherDocument,
    note: r.note,
    replyBy: r.replyBy,
    createdAt: r.createdAt.toISOString(),
    answeredAt: r.answeredAt?.toISOString() ?? null,
    withdrawnAt: r.withdrawnAt?.toISOString() ?? null,
    earlierReplyBy: r.earlierReplyBy,
    overdue: !r.answeredAt && !r.withdrawnAt && r.replyBy < today,
  };
}

export function messageData(m: {
  id: number;
  sender: string;
  body: string;
  createdAt: Date;
}): CaseMessageData {
  return { id: m.id, sender: m.sender, body: m.body, createdAt: m.createdAt.toISOString() };
}

/**
 * What the department's side adds to the applicant's case page (GET /api/cases/current): the case
 * officer's contact details once sent, the requests for further information (a to-do with its reply-by
 * date while open) and the messages on the case.
 */
export async function applicantCaseExtras(
  db: Db,
  applicationId: number,
  today: string,
): Promise<{
  officer: OfficerContact | null;
  requests: InformationRequestData[];
  messages: CaseMessageData[];
}> {
  const [assignment, requests, messages] = await Promise.all([
    repo.assignmentOf(db, applicationId),
    repo.requestsOf(db, applicationId),
    repo.messagesOf(db, applicationId),
  ]);
  const staff = assignment?.contactSentAt ? await repo.staffById(db, assignment.staffId) : undefined;
  return {
    officer:
      staff && assignment?.contactSentAt
        ? {
            nameEn: staff.nameEn,
            nameZh: staff.nameZh,
            postEn: staff.postEn,
            postZh: staff.postZh,
            telephone: staff.telephone,
            email: staff.email,
            sentAt: assignment.contactSentAt.toISOString(),
          }
        : null,
    requests: requests.map((r) => requestData(r, today)),
    messages: messages.map(messageData),
  };
}

/**
 * A message from the applicant (or the appointed AP/RSE) to the case officer, kept on the case: the
 * lifecycle's `message.send` (allowed while the case is open), recorded with its audit event.
 */
export async function sendApplicantMessage(
  db: Db,
  session: AuthSession,
  text: string,
  now: Date,
  language: Language,
): Promise<CaseMessageData> {
  const actor: CaseActor = session.role === 'ap' || session.role === 'rse' ? session.role : 'applicant';
  return db.transaction(async (tx) => {
    const application = await cases.lockApplication(tx, session.applicationId);
    if (!application) throw new NotFoundError('case.notFound');
    const status = isCaseStatus(application.status) ? application.status : 'SUBMITTED';
    requireAllowed(status, 'message.send', await partyQuery(tx, application, session, now), language);
    const sender = submitterOf(actor);
    await repo.insertMessage(tx, { applicationId: application.id, sender, body: text, createdAt: now });
    await cases.insertAudit(tx, {
      at: now,
      actor,
      actorRef: `session:${session.id}`,
      event: 'message.send',
      applicationId: application.id,
      before: { status },
      after: { status },
    });
    const [made] = (await repo.messagesOf(tx, application.id)).slice(-1);
    return { id: made?.id ?? 0, sender, body: text, createdAt: now.toISOString() };
  });
}

/**
 * Submit Supporting Document answering the department's request for further information (the case page's
 * to-do opens the form with `?request=<id>`, docs/console.md): inside the follow-up's transaction the request
 * is marked answered by this follow-up, so the officer sees it answered and the queue stops flagging it.
 * A request that is not an open one of this case refuses the whole follow-up (400 at `requestId`), so
 * nothing is written half.
 */
export const answerRequestEffect: CaseActionEffect = async (tx, action) => {
  if (action.requestId === undefined) return undefined;
  const answered = await repo.answerInformationRequest(
    tx,
    action.applicationId,
    action.requestId,
    action.actionId,
    action.now,
  );
  if (!answered) throw fieldError(['requestId'], 'case.requestNotOpen');
  return undefined;
};
