import type { Db } from '../../../drizzle/db';
import type { CaseActionRow } from '../../../drizzle/schema';
import { nextStatus } from '../../../machines/flows/case-lifecycle.machine';
import type { CaseEventFacts, LifecycleFacts } from '../../../machines/rules/case-rules';
import {
  isCaseStatus,
  submitterOf,
  transitionOf,
  type CaseActor,
  type CaseEventType,
  type CaseStatus,
} from '../../../machines/rules/case-lifecycle';
import type { Language } from '../../../machines/rules/language';
import { NotFoundError } from '../../http/errors';
import { caseFacts, refusalError } from './case-facts';
import * as repo from './cases.repo';

type Application = NonNullable<Awaited<ReturnType<typeof repo.lockApplication>>>;

/** What a case action knows once its row, status and history row are written (its own writes come next). */
export interface CaseActionWritten<P> {
  tx: Db;
  application: Application;
  before: CaseStatus;
  after: CaseStatus;
  /** The case's facts the lifecycle decided on. */
  facts: LifecycleFacts;
  reference: string;
  actionId: number;
  historyId: number | null;
  prepared: P;
}

/** What an action's own writes add: to the audit event, and work to do once the transaction committed. */
export interface CaseActionExtra {
  auditBefore?: Record<string, unknown>;
  auditAfter?: Record<string, unknown>;
  afterCommit?: () => Promise<void>;
}

export interface CaseAction<P> {
  /** The case, found by its id (a session's) or its number (the console's). */
  applicationId?: number;
  applicationNo?: string;
  event: CaseEventType;
  /** The key the action is recorded and counted under (a follow-up form's key, or the event). */
  formKey: string;
  /** The reference's prefix: `<code>-<application number>-<n>`. */
  code: string;
  idempotencyKey: string;
  answers: Record<string, unknown>;
  actor: CaseActor;
  actorRef: string;
  /** An AP's / RSE's registration number: the lifecycle lets only one appointed to the case act. */
  registrationNumber?: string;
  /** The officer acting (`staff:<id>`): the lifecycle's four-eyes rule tells the proposer from the approver. */
  staffRef?: string;
  /** The action's own facts the case's rules check (a date, a result, the request named). */
  own?: CaseEventFacts;
  language: Language;
  now: Date;
  address?: string;
  /** The history row's document type, when the transition writes one (default: the transition's). */
  historyType?: string;
  /** Checks under the lock before the lifecycle's (throw to refuse), such as the status the officer saw. */
  guard?: (tx: Db, application: Application, before: CaseStatus) => Promise<void>;
  /** Checks under the lock once the lifecycle allows the action (throw to refuse); its answer reaches `write`. */
  prepare?: (tx: Db, application: Application, before: CaseStatus) => Promise<P>;
  /** The action's own writes, in the same transaction. */
  write?: (written: CaseActionWritten<P>) => Promise<CaseActionExtra | undefined>;
}

export type CaseActionOutcome =
  | { made: true; application: Application; row: CaseActionRow; extra: CaseActionExtra }
  | { made: false; application: Application; row: CaseActionRow };

/**
 * The one transaction of every action on a case, the applicant's and AP/RSE's follow-ups and the officers'
 * actions alike (docs/architecture.md, "After submission: the case"): under the case's row lock, a retry
 * with the same Idempotency-Key answers the first time's row; otherwise the lifecycle says the next status
 * on the case's facts read under the lock (409 CASE_ACTION_NOT_ALLOWED when the status or role allows
 * none, 409 CASE_RULE / 403 when a rule of the case refuses: docs/flows/case-rules.md), and the action row with its reference, the new
 * status, the history row, the action's own writes and the audit event are written together.
 */
export async function runCaseAction<P = undefined>(
  db: Db,
  action: CaseAction<P>,
): Promise<CaseActionOutcome> {
  return db.transaction(async (tx) => {
    const application =
      action.applicationId !== undefined
        ? await repo.lockApplication(tx, action.applicationId)
        : await repo.lockApplicationByNo(tx, action.applicationNo ?? '');
    if (!application) throw new NotFoundError('case.notFound');
    // Under the lock: a parallel request with the same key finished first.
    const again = await repo.actionByKey(tx, application.id, action.idempotencyKey);
    if (again) return { made: false, application, row: again };
    const before: CaseStatus = isCaseStatus(application.status) ? application.status : 'SUBMITTED';
    await action.guard?.(tx, application, before);
    const facts = await caseFacts(tx, application, action.now);
    const actorRef = action.registrationNumber ?? action.staffRef;
    const query = {
      actor: action.actor,
      facts,
      own: action.own ?? {},
      ...(actorRef === undefined ? {} : { actorRef }),
    };
    const after = nextStatus(before, action.event, query);
    if (after === null) throw refusalError(before, action.event, query, action.language);
    const prepared = (await action.prepare?.(tx, application, before)) as P;
    const { now } = action;
    const n = (await repo.countActions(tx, application.id, action.formKey)) + 1;
    const reference = `${action.code}-${application.applicationNo}-${n}`;
    const row = await repo.insertAction(tx, {
      applicationId: application.id,
      formKey: action.formKey,
      reference,
      idempotencyKey: action.idempotencyKey,
      answers: action.answers,
      statusBefore: before,
      statusAfter: after,
      actor: action.actor,
      language: action.language,
      createdAt: now,
    });
    if (after !== before) await repo.setStatus(tx, application.id, after, now);
    const transition = transitionOf(action.event);
    const historyId = !transition.history
      ? null
      : await repo.insertHistory(tx, {
          applicationId: application.id,
          submissionDate: now,
          documentType: action.historyType ?? transition.history,
          status: after,
          submittedBy: submitterOf(action.actor),
          date: now,
          reference,
        });
    const written = {
      tx,
      application,
      before,
      after,
      facts,
      reference,
      actionId: row.id,
      historyId,
      prepared,
    };
    const extra = (await action.write?.(written)) ?? {};
    await repo.insertAudit(tx, {
      at: now,
      actor: action.actor,
      actorRef: action.actorRef,
      event: action.event,
      applicationId: application.id,
      reference,
      before: { status: before, ...extra.auditBefore },
      after: { status: after, ...extra.auditAfter },
      ...(action.address === undefined ? {} : { address: action.address }),
    });
    return { made: true, application, row, extra };
  });
}
