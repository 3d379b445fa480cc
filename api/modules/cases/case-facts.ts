import { and, asc, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { appointments } from '../../../drizzle/schema-appointments';
import { caseActions, masterData, type ApplicationRow } from '../../../drizzle/schema';
import { informationRequests, issuedDocuments } from '../../../drizzle/schema-staff';
import { decisionProposals } from '../../../drizzle/schema-proposals';
import { isDecisionEvent } from '../../../machines/rules/proposals';
import type { CaseActor, CaseStatus } from '../../../machines/rules/case-lifecycle';
import {
  canSend,
  OPEN_FACTS,
  whyRefused,
  type CaseQuery,
} from '../../../machines/flows/case-lifecycle.machine';
import type { CaseEventType } from '../../../machines/rules/case-lifecycle';
import type { Language } from '../../../machines/rules/language';
import { CaseActionNotAllowedError, CaseRuleError } from './cases.errors';
import {
  LOR_STANDS,
  partyRef,
  REPLY_WORKING_DAYS,
  type CaseEventFacts,
  type LifecycleFacts,
  type InspectionResult,
} from '../../../machines/rules/case-rules';
import { addDays, hongKongDate, isIsoDate } from '../../../machines/rules/working-days';
import { holidaysBetween, openAnswers } from '../shared';
import {
  letterAnswers,
  selfCertFormFor,
  type IssuedLetter,
  type SelfCertOffer,
} from '../../../machines/rules/selfcert';
import { formByKey } from '../../../machines/forms';

/**
 * The case's facts the lifecycle decides on (machines/rules/case-rules.ts), read from the case's records:
 * what was issued in order (letters, inspections and their results, corrections), the open information
 * requests, the active appointments, the inspection request's preferred dates and the reply-by setting.
 * Read under the case's row lock by every action (api/modules/cases/case-action.ts), so two actions
 * cannot both see the facts before the other. docs/flows/case-rules.md.
 */

/** The master data setting of the working days a reply-by date must leave (admin_setting). */
export const REPLY_WORKING_DAYS_CODE = 'reply_working_days';

/** The events of `issued_documents` that start a new round, so the inspection before them is history. */
const NEW_ROUND = new Set(['lor.issue', 'lor.withdraw', 'case.reopen', 'inspection.cancel']);

export async function caseFacts(
  db: Db,
  application: Pick<ApplicationRow, 'id' | 'formCode' | 'status'>,
  now: Date,
): Promise<LifecycleFacts> {
  const today = hongKongDate(now);
  const [issued, open, active, [inspectionRequest], [setting], [pending]] = await Promise.all([
    db
      .select({
        event: issuedDocuments.event,
        data: issuedDocuments.data,
        createdAt: issuedDocuments.createdAt,
      })
      .from(issuedDocuments)
      .where(eq(issuedDocuments.applicationId, application.id))
      .orderBy(asc(issuedDocuments.id)),
    db
      .select({ id: informationRequests.id })
      .from(informationRequests)
      .where(
        and(
          eq(informationRequests.applicationId, application.id),
          isNull(informationRequests.answeredAt),
          isNull(informationRequests.withdrawnAt),
        ),
      ),
    db
      .select({ identity: appointments.identity, registrationNumber: appointments.registrationNumber })
      .from(appointments)
      .where(
        // Only the number's holder's acceptance puts an AP or RSE on the case
        // (docs/decisions/025-registration-holders.md).
        and(
          eq(appointments.applicationId, application.id),
          eq(appointments.status, 'ACTIVE'),
          isNotNull(appointments.holderId),
        ),
      ),
    db
      .select({ answers: caseActions.answers, createdAt: caseActions.createdAt })
      .from(caseActions)
      .where(
        and(eq(caseActions.applicationId, application.id), eq(caseActions.formKey, 'requestForInspection')),
      )
      .orderBy(desc(caseActions.id))
      .limit(1),
    db
      .select({ value: masterData.dataValue })
      .from(masterData)
      .where(and(eq(masterData.type, 'admin_setting'), eq(masterData.code, REPLY_WORKING_DAYS_CODE)))
      .limit(1),
    // The decision waiting for a senior officer's approval (docs/decisions/040-four-eyes-decisions.md).
    db
      .select({ decision: decisionProposals.decision, proposedBy: decisionProposals.proposedBy })
      .from(decisionProposals)
      .where(and(eq(decisionProposals.applicationId, application.id), eq(decisionProposals.state, 'pending')))
      .limit(1),
  ]);

  let date: string | null = null;
  let result: InspectionResult | null = null;
  let roundStart = new Date(0);
  let issuedLetter: IssuedLetter | null = null;
  for (const row of issued) {
    const data = (row.data ?? {}) as { date?: unknown; result?: unknown };
    // The letter standing is the latest issued: a correction (revision) is a new one.
    if (row.event === 'lor.issue') issuedLetter = row.data as IssuedLetter;
    if (NEW_ROUND.has(row.event)) {
      date = null;
      result = null;
      if (row.event !== 'inspection.cancel') roundStart = row.createdAt;
    } else if (row.event === 'inspection.schedule' || row.event === 'inspection.reschedule') {
      if (isIsoDate(data.date)) [date, result] = [data.date, null];
    } else if (row.event === 'inspection.record' && date !== null) {
      result = data.result === 'PASS' ? 'PASS' : 'FAIL';
    }
  }
  const inspection = date === null ? null : { date, result };
  const answers = openAnswers((inspectionRequest?.answers ?? {}) as Record<string, unknown>);
  const preferredDates =
    inspectionRequest && inspectionRequest.createdAt >= roundStart
      ? ['preferredDate1', 'preferredDate2', 'preferredDate3'].map((k) => answers[k]).filter(isIsoDate)
      : [];
  const days = Number(setting?.value);
  return {
    today,
    holidays: holidaysBetween(addDays(today, -7), addDays(today, 400)),
    formCode: application.formCode,
    lorIssued: (LOR_STANDS as readonly string[]).includes(application.status),
    preferredDates,
    inspection,
    openRequests: open.map((r) => r.id),
    appointees: active.map((a) => partyRef(a.identity === 'rse' ? 'rse' : 'ap', a.registrationNumber)),
    replyWorkingDays: Number.isInteger(days) && days >= 1 && days <= 60 ? days : REPLY_WORKING_DAYS,
    issuedLetter,
    proposal:
      pending && isDecisionEvent(pending.decision)
        ? { decision: pending.decision, by: `staff:${pending.proposedBy}` }
        : null,
  };
}

/** Who a session is on the case, with the case's facts: what the lifecycle is asked with. */
export async function partyQuery(
  db: Db,
  application: Pick<ApplicationRow, 'id' | 'formCode' | 'status'>,
  session: { role: string; registrationNumber?: string | undefined },
  now: Date,
): Promise<CaseQuery> {
  const actor: CaseActor = session.role === 'ap' || session.role === 'rse' ? session.role : 'applicant';
  return {
    actor,
    facts: await caseFacts(db, application, now),
    ...(session.registrationNumber === undefined ? {} : { actorRef: session.registrationNumber }),
  };
}

/**
 * What the case page offers an AP or RSE to self-certify (docs/decisions/021-self-certification.md): the
 * form that fits the case's type, when the lifecycle allows `selfCertification.submit` for them now.
 */
export function selfCertOffer(
  application: Pick<ApplicationRow, 'id' | 'formCode'>,
  status: CaseStatus,
  query: CaseQuery,
) {
  const formKey = selfCertFormFor(application.formCode);
  const { actor, actorRef } = query;
  if (!formKey || (actor !== 'ap' && actor !== 'rse') || !actorRef) return {};
  if (!canSend(status, 'selfCertification.submit', { ...query, own: { formKey } })) return {};
  // The letter standing now: the latest issued (a correction is a new one), as the case's facts read it.
  const data = query.facts?.issuedLetter ?? undefined;
  const hasLetterStep = formByKey(formKey)?.steps.some(
    (s) => s.kind === 'fill' && s.id === 'letterOfRequirements',
  );
  const offer: SelfCertOffer = {
    formKey,
    certifierIdentity: actor,
    certifierRegNo: actorRef,
    letter: data && hasLetterStep ? letterAnswers(data) : null,
  };
  return { selfCertification: offer };
}

/** The refusal of an event the lifecycle does not allow: the status's (409), or the case rule's (409 / 403). */
export function refusalError(status: CaseStatus, event: CaseEventType, query: CaseQuery, language: Language) {
  const why = whyRefused(status, event, query);
  return why.kind === 'rule'
    ? new CaseRuleError(why.rule, query.facts ?? OPEN_FACTS, language)
    : new CaseActionNotAllowedError(status, language);
}

/** Throws the refusal unless the lifecycle allows the event now. */
export function requireAllowed(
  status: CaseStatus,
  event: CaseEventType,
  query: CaseQuery,
  language: Language,
) {
  if (!canSend(status, event, query)) throw refusalError(status, event, query, language);
}

/** The applicant's latest inspection request (who to meet, the preferred dates, access), for the officer. */
export async function latestInspectionRequest(db: Db, applicationId: number) {
  const [row] = await db
    .select({ answers: caseActions.answers, reference: caseActions.reference })
    .from(caseActions)
    .where(and(eq(caseActions.applicationId, applicationId), eq(caseActions.formKey, 'requestForInspection')))
    .orderBy(desc(caseActions.id))
    .limit(1);
  if (!row) return null;
  const a = openAnswers((row.answers ?? {}) as Record<string, unknown>);
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  return {
    reference: row.reference,
    preferredDates: ['preferredDate1', 'preferredDate2', 'preferredDate3'].map((k) => a[k]).filter(isIsoDate),
    contactName: str(a.inspectionContactName),
    contactTelephone: str(a.inspectionContactTelephone),
    accessNotes: str(a.accessNotes),
  };
}

/** A follow-up's own facts for the case's rules: the preferred dates asked for, the request answered. */
export function ownFactsOf(
  event: CaseEventType,
  answers: Readonly<Record<string, unknown>>,
  requestId?: number,
): CaseEventFacts {
  if (event === 'inspection.request')
    return {
      preferredDates: ['preferredDate1', 'preferredDate2', 'preferredDate3']
        .map((k) => answers[k])
        .filter(isIsoDate),
    };
  return requestId === undefined ? {} : { requestId };
}
