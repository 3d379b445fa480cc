import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import { canSend } from '../../../machines/flows/case-lifecycle.machine';
import {
  followUpByKey,
  followUpForCase,
  formOfCase,
  FOLLOW_UP_CATALOGUE,
  nextVersionAnswers,
} from '../../../machines/forms/follow-up';
import type { CaseFacts, FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import type { FollowUpKey } from '../../../machines/forms/follow-up/entries';
import { LAYOUT_PLAN_DOCUMENT } from '../../../machines/forms/follow-up/submit-document';
import {
  isCaseStatus,
  submitterOf,
  transitionOf,
  type CaseActor,
} from '../../../machines/rules/case-lifecycle';
import type { CaseActionResult, CaseData, CaseHistoryRowData } from '../../../machines/rules/case';
import { IDEMPOTENCY_KEY } from '../../../machines/rules/case';
import { isLanguage, type Language } from '../../../machines/rules/language';
import { ApiError, ForbiddenError, NotFoundError } from '../../http/errors';
import {
  CaseActionNotAllowedError,
  CaseRateLimitedError,
  CaseStaleError,
  IdempotencyKeyReusedError,
} from './cases.errors';
import type { Clock } from '../../clock';
import { renderApplicationPdf, type CalendarService, type MessageService } from '../shared';
import { signedSection } from './case-signature';
import type { AuthSession } from '../auth';
import { addCaseVersion, currentCaseVersion } from './case-versions';
import { takeUploads } from './case-uploads';
import * as repo from './cases.repo';
import { parseFollowUp } from './case-follow-up';
import { requireFollowUpSignature } from './case-signing';
import { applicantCaseExtras } from './case-messages';
import { runCaseAction } from './case-action';
import { ownFactsOf, partyQuery, refusalError, selfCertOffer } from './case-facts';
import { appointeeView, APPLICANT_ONLY_DOCUMENTS } from './appointee-view';
import { hongKongDate } from '../../../machines/rules/working-days';
import { fieldError } from '../../http/field-errors';
import { DOWNLOAD_DAYS } from '../../../machines/rules/submission';
import { withApplicantReviews } from './document-reviews';

/**
 * Cases after submission (docs/decisions/009-case-lifecycle.md): the case page's data and the one generic path for acting on a case.
 * A follow-up is validated with its form's schema, checked against the case lifecycle (the statechart, never
 * a status written by hand), and written in one transaction under the case's row lock: the follow-up, the
 * new status, the history row and the audit event. Idempotent by Idempotency-Key per case. The applicant is
 * told after the commit (email, else SMS, in the case's language).
 */

/** At most this many follow-ups per case in an hour (a person needs a handful; more is abuse). */
export const CASE_ACTIONS_PER_HOUR = 20;
const HOUR_MS = 3_600_000;

export interface CaseDocumentFile {
  storageKey: string;
  fileName: string;
}

export interface CaseService {
  current(session: AuthSession): Promise<CaseData>;
  act(
    session: AuthSession,
    formKey: string,
    body: {
      answers: Record<string, unknown>;
      baseVersion?: number;
      uploads?: number[];
      requestId?: number;
      /** The signing of a follow-up with a sign step (api/modules/cases/case-signing.ts). */
      signature?: string;
    },
    idempotencyKey: string,
    language: Language,
  ): Promise<CaseActionResult>;
  document(session: AuthSession, documentId: number): Promise<CaseDocumentFile>;
  /** The application PDF of the case's information as it is now (its latest version), in `language`. */
  informationPdf(session: AuthSession, language: Language): Promise<{ bytes: Uint8Array; fileName: string }>;
}

/**
 * What a follow-up does beyond the generic path (the appointment invites its appointee): run inside the
 * follow-up's transaction, after its row; the function it returns runs after the commit (messages).
 */
export type CaseActionEffect = (
  tx: Db,
  action: {
    applicationId: number;
    applicationNo: string;
    actionId: number;
    answers: Record<string, unknown>;
    actor: CaseActor;
    actorRef: string;
    language: string;
    now: Date;
    /** The department's request for further information the follow-up answers, if it names one. */
    requestId?: number;
  },
) => Promise<(() => Promise<void>) | undefined>;

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
  effects = {},
}: {
  db: Db;
  clock: Clock;
  calendar: CalendarService;
  messages: MessageService;
  logger: Logger;
  effects?: Readonly<Partial<Record<string, CaseActionEffect>>>;
}): CaseService {
  async function facts(
    applicationId: number,
    applicationNo: string,
    nameEn: string | null,
  ): Promise<CaseFacts> {
    const information = await currentCaseVersion(db, applicationId);
    const a = information.answers;
    return {
      applicationNo,
      applicantName: str(a.applicantNameEn) ?? nameEn,
      contactName: str(a.contactName),
      contactTelephone: str(a.contactTelephone) ?? str(a.contactMobile),
      information,
    };
  }

  /** The answer of a follow-up, from its row (whose key the caller has checked is `formKey`). */
  const resultOf = (
    applicationNo: string,
    formKey: FollowUpKey,
    row: { reference: string; statusAfter: string; createdAt: Date },
  ): CaseActionResult => ({
    applicationNo,
    formKey,
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
      const query = await partyQuery(db, application, session, clock.now());
      const [history, documents, first, revisions] = await Promise.all([
        repo.historyOf(db, application.id),
        repo.documentsOf(db, application.id),
        repo.firstSubmission(db, application.id),
        repo.layoutPlanRevisions(db, application.id),
      ]);
      const now = clock.now();
      // The layout plans of the latest row that has any (history is newest first) are the current ones.
      const currentPlans = history.find((h) =>
        documents.some((d) => d.historyId === h.id && d.kind === LAYOUT_PLAN_DOCUMENT),
      )?.id;
      const rows: CaseHistoryRowData[] = history.map((h) => ({
        id: h.id,
        submissionDate: h.submissionDate.toISOString(),
        documentType: h.documentType,
        status: h.status,
        submittedBy: h.submittedBy,
        date: h.date.toISOString(),
        reference: h.reference,
        revision: (h.reference && revisions.get(h.reference)) ?? null,
        documents: documents
          .filter((d) => d.historyId === h.id)
          .map((d) => ({
            id: d.id,
            fileName: d.fileName,
            kind: d.kind,
            ...(d.kind === LAYOUT_PLAN_DOCUMENT ? { current: h.id === currentPlans } : {}),
            bytes: d.bytes,
            downloadable: d.downloadUntil === null || now < d.downloadUntil,
            downloadUntil: d.downloadUntil?.toISOString() ?? null,
          })),
      }));
      const data: CaseData = {
        applicationNo: application.applicationNo,
        formCode: application.formCode,
        applicationType: application.applicationType,
        status,
        submittedAt: (first ?? application.createdAt).toISOString(),
        // The follow-ups the case page offers (one whose pages are not open yet is left out; its API works).
        actions: Object.values(FOLLOW_UP_CATALOGUE)
          .filter((d) => d.pagesOpen !== false)
          .map((d) => ({
            key: d.key,
            route: d.route,
            allowed:
              canSend(status, d.event, query) && followUpForCase(d, application.formCode) !== undefined,
          })),
        ...selfCertOffer(application, status, query),
        history: await withApplicantReviews(db, application.id, documents, rows),
        facts: await facts(application.id, application.applicationNo, application.applicantNameEn),
        inspection: query.facts?.inspection ?? null,
        calendar: calendar.window(),
        ...(await applicantCaseExtras(db, application.id, hongKongDate(now))),
      };
      // An AP or RSE gets only what they need (docs/appointee-visibility.md).
      return query.actor === 'applicant' ? data : appointeeView(data);
    },

    async act(session, formKey, body, idempotencyKey, language) {
      const generic: FollowUpDefinition | undefined = followUpByKey(formKey);
      if (!generic) throw new NotFoundError('case.unknownAction');
      if (!IDEMPOTENCY_KEY.test(idempotencyKey))
        throw fieldError(['Idempotency-Key'], 'submission.idempotencyKey');
      const actor = actorOf(session);
      // A follow-up this role never sends (an AP withdrawing, or changing the appointment) is 403, whatever
      // the status: the lifecycle's actors say who may.
      if (!transitionOf(generic.event).by.includes(actor)) throw new ForbiddenError();

      // A retry of a follow-up already made gets the same answer, before any other check.
      const known = await repo.actionByKey(db, session.applicationId, idempotencyKey);
      if (known) {
        if (known.formKey !== generic.key) throw new IdempotencyKeyReusedError();
        return resultOf(session.applicationNo, generic.key, known);
      }
      const found = await repo.findApplication(db, session.applicationId);
      if (!found) throw new NotFoundError('case.notFound');
      // The form as it is for this case (an update form takes the application's sections); a form that is
      // not for this kind of application is refused like a status that does not allow it.
      const definition = followUpForCase(generic, found.formCode);
      // A status that does not allow it is explained before the answers are checked (checked again under
      // the lock below).
      const status = isCaseStatus(found.status) ? found.status : 'SUBMITTED';
      const query = await partyQuery(db, found, session, clock.now());
      if (!definition || !canSend(status, generic.event, query)) {
        await rateCheck(session.applicationId); // a refused follow-up counts towards the limit too
        throw definition
          ? refusalError(status, generic.event, query, language)
          : new CaseActionNotAllowedError(status, language);
      }
      const parsed = await parseFollowUp(db, calendar, definition, found.id, body);
      const { uploads } = parsed;
      await rateCheck(session.applicationId);

      const now = clock.now();
      const transition = transitionOf(definition.event);
      const actorRef = `session:${session.id}`;
      const outcome = await runCaseAction(db, {
        applicationId: session.applicationId,
        event: definition.event,
        formKey: definition.key,
        code: definition.code,
        idempotencyKey,
        answers: parsed.answers,
        actor,
        actorRef,
        ...(session.registrationNumber === undefined
          ? {}
          : { registrationNumber: session.registrationNumber }),
        own: ownFactsOf(definition.event, parsed.answers, body.requestId),
        language,
        now,
        ...(definition.historyType ? { historyType: definition.historyType(parsed.answers) } : {}),
        prepare: async (tx, application) => {
          // Optimistic concurrency: the update names the version it was opened on; under the lock, the
          // latest version must still be that one.
          const current = definition.versioned ? await currentCaseVersion(tx, application.id) : undefined;
          if (current && current.version !== body.baseVersion) throw new CaseStaleError(current);
          // A follow-up with a sign step rests on a signing of exactly these answers and files (409 else).
          const signed = await requireFollowUpSignature(tx, application, definition, parsed, body.signature);
          return { current, signed };
        },
        write: async ({ tx, application, reference, actionId, historyId, prepared }) => {
          const { current, signed } = prepared;
          await signed?.record(actionId);
          if (current) {
            const answers = nextVersionAnswers(definition, current.answers, parsed.answers);
            await addCaseVersion(tx, application.id, {
              answers,
              reference,
              submittedBy: submitterOf(actor),
              actionId,
              at: now,
            });
            await repo.setNames(tx, application.id, answers, now);
          }
          // The files of the upload step become the case's documents under the history row.
          await takeUploads(tx, {
            applicationId: application.id,
            ids: uploads,
            actionId,
            historyId,
            kind:
              typeof parsed.answers.documentType === 'string' ? parsed.answers.documentType : definition.key,
            requestId: body.requestId ?? null,
            at: now,
            downloadUntil: new Date(now.getTime() + DOWNLOAD_DAYS * 86_400_000),
          });
          const afterCommit = await effects[definition.key]?.(tx, {
            applicationId: application.id,
            applicationNo: application.applicationNo,
            actionId,
            answers: parsed.answers,
            actor,
            actorRef,
            language: isLanguage(application.language) ? application.language : 'tc',
            now,
            ...(body.requestId === undefined ? {} : { requestId: body.requestId }),
          });
          return { auditAfter: { formKey: definition.key }, ...(afterCommit ? { afterCommit } : {}) };
        },
      });
      if (outcome.made && outcome.extra.afterCommit)
        await outcome.extra
          .afterCommit()
          .catch((err: unknown) => logger.error({ err }, 'follow-up effect failed'));
      if (outcome.row.formKey !== definition.key) throw new IdempotencyKeyReusedError();
      const result = resultOf(outcome.application.applicationNo, definition.key, outcome.row);
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
            // A revised layout plan is acknowledged as one (`message.case.revisedLayoutPlan`).
            formKey:
              definition.historyType?.(outcome.row.answers as Record<string, unknown>) === 'LAYOUT_PLAN'
                ? 'revisedLayoutPlan'
                : definition.key,
            reference: result.reference,
            status: result.status,
            at: now,
          })
          .catch((err: unknown) => logger.error({ err }, 'case notice not queued'));
      }
      return result;
    },

    async informationPdf(session, language) {
      const application = await repo.findApplication(db, session.applicationId);
      if (!application) throw new NotFoundError('case.notFound');
      const form = formOfCase(application.formCode);
      if (!form) throw new NotFoundError('case.documentNotFound');
      const information = await currentCaseVersion(db, application.id);
      const bytes = await renderApplicationPdf({
        definition: form,
        answers: information.answers,
        applicationNo: application.applicationNo,
        language,
        generatedAt: clock.now(),
        // The signature it rests on, as its last section (docs/decisions/041-letter-parts.md).
        ...(await signedSection(db, application.id, information.version)),
      });
      return { bytes, fileName: `${application.applicationNo} v${information.version}.pdf` };
    },

    async document(session, documentId) {
      const row = await repo.documentOf(db, session.applicationId, documentId);
      // The signed application is the applicant's: an AP or RSE is answered as for an unknown document.
      const applicantOnly = row !== undefined && APPLICANT_ONLY_DOCUMENTS.includes(row.kind);
      if (!row || (applicantOnly && actorOf(session) !== 'applicant'))
        throw new NotFoundError('case.documentNotFound');
      if (row.downloadUntil && clock.now() >= row.downloadUntil)
        throw new ApiError(410, 'DOWNLOAD_EXPIRED', 'submission.downloadExpired', null, {
          params: { days: 7 },
        });
      return { storageKey: row.storageKey, fileName: `${session.applicationNo} ${row.fileName}` };
    },
  };
}
