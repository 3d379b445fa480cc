import type { Logger } from 'pino';
import type { Db } from '../../drizzle/db';
import { canSend, nextStatus } from '../../machines/flows/case-lifecycle.machine';
import { followUpByKey, followUpSchema, FOLLOW_UP_CATALOGUE } from '../../machines/forms/follow-up';
import type { CaseFacts, FollowUpDefinition } from '../../machines/forms/follow-up/types';
import { isCaseStatus, submitterOf, transitionOf, type CaseActor } from '../../machines/rules/case-lifecycle';
import type { CaseActionResult, CaseData, CaseHistoryRowData } from '../../machines/rules/case';
import { IDEMPOTENCY_KEY } from '../../machines/rules/case';
import { isLanguage, type Language } from '../../machines/rules/language';
import { ApiError, NotFoundError } from '../errors';
import type { Clock } from '../clock';
import { translate } from '../i18n';
import type { CalendarService } from './calendar';
import * as repo from './cases.repo';
import { fieldError, underAnswers } from './drafts';
import type { MessageService } from './messages';
import type { AuthSession } from './sessions';

/**
 * Cases after submission (issue 10): the case page's data and the one generic path for acting on a case.
 * A follow-up is validated with its form's schema, checked against the case lifecycle (the statechart, never
 * a status written by hand), and written in one transaction under the case's row lock: the follow-up, the
 * new status, the history row and the audit event. Idempotent by Idempotency-Key per case. The applicant is
 * told after the commit (email, else SMS, in the case's language).
 */

/** At most this many follow-ups per case in an hour (a person needs a handful; more is abuse). */
export const CASE_ACTIONS_PER_HOUR = 20;
const HOUR_MS = 3_600_000;

/** 409 CASE_ACTION_NOT_ALLOWED: the lifecycle does not allow this now; the message names the status. */
export class CaseActionNotAllowedError extends ApiError {
  constructor(status: string, language: Language) {
    super(
      409,
      'CASE_ACTION_NOT_ALLOWED',
      'case.notAllowed',
      { status },
      { params: { status: translate(language, `case.statuses.${status}`) } },
    );
  }
}

/** 409 IDEMPOTENCY_KEY_REUSED: the key was used for another follow-up of this case. */
export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super(409, 'IDEMPOTENCY_KEY_REUSED', 'case.keyReused');
  }
}

export class CaseRateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(
      429,
      'CASE_RATE_LIMITED',
      'case.rateLimited',
      { retryAfterSeconds: seconds },
      { params: { minutes: Math.ceil(seconds / 60) }, headers: { 'Retry-After': String(seconds) } },
    );
  }
}

export interface CaseDocumentFile {
  storageKey: string;
  fileName: string;
}

export interface CaseService {
  current(session: AuthSession): Promise<CaseData>;
  act(
    session: AuthSession,
    formKey: string,
    body: { answers: Record<string, unknown> },
    idempotencyKey: string,
    language: Language,
  ): Promise<CaseActionResult>;
  document(session: AuthSession, documentId: number): Promise<CaseDocumentFile>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The session's role as the lifecycle's actor (Find my case sessions are applicants'). */
function actorOf(session: AuthSession): CaseActor {
  return session.role === 'ap' || session.role === 'rse' ? session.role : 'applicant';
}

export function createCaseService({
  db,
  clock,
  calendar,
  messages,
  logger,
}: {
  db: Db;
  clock: Clock;
  calendar: CalendarService;
  messages: MessageService;
  logger: Logger;
}): CaseService {
  async function facts(
    applicationId: number,
    applicationNo: string,
    nameEn: string | null,
  ): Promise<CaseFacts> {
    const submitted = await repo.submittedAnswers(db, applicationId);
    const a = submitted?.answers ?? {};
    return {
      applicationNo,
      applicantName: str(a.applicantNameEn) ?? nameEn,
      contactName: str(a.contactName),
      contactTelephone: str(a.contactTelephone) ?? str(a.contactMobile),
    };
  }

  const resultOf = (
    applicationNo: string,
    row: { formKey: string; reference: string; statusAfter: string; createdAt: Date },
  ): CaseActionResult => ({
    applicationNo,
    formKey: row.formKey as CaseActionResult['formKey'],
    reference: row.reference,
    status: isCaseStatus(row.statusAfter) ? row.statusAfter : 'SUBMITTED',
    submittedAt: row.createdAt.toISOString(),
  });

  async function rateCheck(applicationId: number) {
    const key = `application:${applicationId}`;
    const now = clock.now();
    await db.transaction(async (tx) => {
      await repo.lockRate(tx, key);
      const used = await repo.countRate(tx, key, new Date(now.getTime() - HOUR_MS));
      if (used >= CASE_ACTIONS_PER_HOUR) throw new CaseRateLimitedError(HOUR_MS / 1000);
      await repo.addRate(tx, key, now);
    });
  }

  return {
    async current(session) {
      const application = await repo.findApplication(db, session.applicationId);
      if (!application) throw new NotFoundError('case.notFound');
      const status = isCaseStatus(application.status) ? application.status : 'SUBMITTED';
      const actor = actorOf(session);
      const [history, documents, first] = await Promise.all([
        repo.historyOf(db, application.id),
        repo.documentsOf(db, application.id),
        repo.firstSubmission(db, application.id),
      ]);
      const now = clock.now();
      const rows: CaseHistoryRowData[] = history.map((h) => ({
        id: h.id,
        submissionDate: h.submissionDate.toISOString(),
        documentType: h.documentType,
        status: h.status,
        submittedBy: h.submittedBy,
        date: h.date.toISOString(),
        reference: h.reference,
        documents: documents
          .filter((d) => d.historyId === h.id)
          .map((d) => ({
            id: d.id,
            fileName: d.fileName,
            kind: d.kind,
            bytes: d.bytes,
            downloadable: d.downloadUntil === null || now < d.downloadUntil,
            downloadUntil: d.downloadUntil?.toISOString() ?? null,
          })),
      }));
      return {
        applicationNo: application.applicationNo,
        formCode: application.formCode,
        applicationType: application.applicationType,
        status,
        submittedAt: (first ?? application.createdAt).toISOString(),
        actions: Object.values(FOLLOW_UP_CATALOGUE).map((d) => ({
          key: d.key,
          route: d.route,
          allowed: canSend(status, d.event, actor),
        })),
        history: rows,
        facts: await facts(application.id, application.applicationNo, application.applicantNameEn),
        calendar: calendar.window(),
      };
    },

    async act(session, formKey, body, idempotencyKey, language) {
      const definition: FollowUpDefinition | undefined = followUpByKey(formKey);
      if (!definition) throw new NotFoundError('case.unknownAction');
      if (!IDEMPOTENCY_KEY.test(idempotencyKey))
        throw fieldError(['Idempotency-Key'], 'submission.idempotencyKey');
      const actor = actorOf(session);

      // A retry of a follow-up already made gets the same answer, before any other check.
      const known = await repo.actionByKey(db, session.applicationId, idempotencyKey);
      if (known) {
        if (known.formKey !== definition.key) throw new IdempotencyKeyReusedError();
        return resultOf(session.applicationNo, known);
      }
      const { today, holidays } = calendar.window();
      const parsed = followUpSchema(definition, { today, holidays: new Set(holidays) }).safeParse(
        body.answers,
      );
      if (!parsed.success) throw underAnswers(parsed.error);
      await rateCheck(session.applicationId);

      const now = clock.now();
      const transition = transitionOf(definition.event);
      const outcome = await db.transaction(async (tx) => {
        const application = await repo.lockApplication(tx, session.applicationId);
        if (!application) throw new NotFoundError('case.notFound');
        // Under the lock: a parallel request with the same key finished first.
        const again = await repo.actionByKey(tx, application.id, idempotencyKey);
        if (again) return { row: again, application, made: false };
        const before = isCaseStatus(application.status) ? application.status : 'SUBMITTED';
        const after = nextStatus(before, definition.event, actor);
        if (after === null) throw new CaseActionNotAllowedError(before, language);
        const n = (await repo.countActions(tx, application.id, definition.key)) + 1;
        const reference = `${definition.code}-${application.applicationNo}-${n}`;
        const row = await repo.insertAction(tx, {
          applicationId: application.id,
          formKey: definition.key,
          reference,
          idempotencyKey,
          answers: parsed.data,
          statusBefore: before,
          statusAfter: after,
          actor,
          language,
          createdAt: now,
        });
        if (after !== before) await repo.setStatus(tx, application.id, after, now);
        if (transition.history)
          await repo.insertHistory(tx, {
            applicationId: application.id,
            submissionDate: now,
            documentType: transition.history,
            status: after,
            submittedBy: submitterOf(actor),
            date: now,
            reference,
          });
        await repo.insertAudit(tx, {
          at: now,
          actor,
          actorRef: `session:${session.id}`,
          event: definition.event,
          applicationId: application.id,
          reference,
          before: { status: before },
          after: { status: after, formKey: definition.key },
        });
        return { row, application, made: true };
      });
      if (outcome.row.formKey !== definition.key) throw new IdempotencyKeyReusedError();
      const result = resultOf(outcome.application.applicationNo, outcome.row);
      const { application } = outcome;
      const to = application.email ?? application.mobile;
      if (outcome.made && to && transition.notifies.includes('applicant')) {
        // A durable job (sent once by whichever process takes it, retried when the sender fails). The
        // follow-up stands even if queueing fails now (logged): the case page shows it.
        await messages
          .sendCaseNotice({
            channel: application.email ? 'email' : 'sms',
            to,
            language: isLanguage(application.language) ? application.language : 'tc',
            applicationNo: application.applicationNo,
            formKey: definition.key,
            reference: result.reference,
            status: result.status,
            at: now,
          })
          .catch((err: unknown) => logger.error({ err }, 'case notice not queued'));
      }
      return result;
    },

    async document(session, documentId) {
      const row = await repo.documentOf(db, session.applicationId, documentId);
      if (!row) throw new NotFoundError('case.documentNotFound');
      if (row.downloadUntil && clock.now() >= row.downloadUntil)
        throw new ApiError(410, 'DOWNLOAD_EXPIRED', 'submission.downloadExpired', null, {
          params: { days: 7 },
        });
      return { storageKey: row.storageKey, fileName: `${session.applicationNo} ${row.fileName}` };
    },
  };
}
