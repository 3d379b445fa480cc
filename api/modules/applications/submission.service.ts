import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { currentAnswers } from '../cases';
import {
  applicationHistory,
  applications,
  caseDocuments,
  drafts,
  signingRequests,
  submissions,
} from '../../../drizzle/schema';
import { formByKey } from '../../../machines/forms';
import type { Language } from '../../../machines/rules/language';
import { fieldsOf } from '../../../machines/forms/fields';
import { DraftSubmittedError, NotFoundError, UnauthorizedError } from '../../http/errors';
import { addMs, type Clock } from '../../clock';
import { answerLines, openAnswers, type MessageService } from '../shared';
import { certifiedCaseLocked, recordSelfCertification, selfCertificationNotice } from '../selfcert';
import { readyApplication } from './readiness';
import { downloadLinks } from './submission-links';
import type { DocumentService } from './documents.service';
import {
  AlreadySubmittedError,
  DownloadExpiredError,
  isSignatureCurrent,
  SignatureRequiredError,
} from './submission-rules';
import { DAY_MS, type DraftAccess } from './drafts.service';
import type { Logger } from 'pino';
import type {
  SubmissionData,
  SubmissionDetailsData,
  SubmittedFileData,
} from '../../../machines/rules/submission';
import { fieldError } from '../../http/field-errors';
import { DOWNLOAD_DAYS } from '../../../machines/rules/submission';

/**
 * Submission (spec §2, §4): one transaction that marks the draft submitted, records the application
 * for "Find my case" with its first history row, and keeps the submission; then an acknowledgement goes
 * to the confirmed email (else mobile) in the applicant's language. Idempotent: the draft row is locked
 * by the first statement, so parallel submits of one application wait for each other and exactly one
 * submission exists; a retry with the same Idempotency-Key gets the same answer. The submitted files
 * can be downloaded for DOWNLOAD_DAYS (7) days. Its refusals and file names: submission-rules.ts.
 */

/** How long a signed download link works. */
export const LINK_TTL_MS = 10 * 60_000;
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/** A document as the signing request froze it. */
interface SignedDocument {
  id: number;
  documentType: string;
  sha256: string;
  storageKey: string;
  fileName: string;
  bytes: number;
}

/** A submitted file and where it is stored (the key never leaves the API). */
export interface SubmittedFile extends SubmittedFileData {
  storageKey?: string;
}

export type SubmissionDetails = SubmissionDetailsData;

const str = (v: unknown) =>
  typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null;

export interface SubmissionService {
  submit(access: DraftAccess, idempotencyKey: string, language: Language): Promise<SubmissionData>;
  /**
   * The Application Details of a submission: the applicant and contact person as submitted, or, for the
   * case page (`caseId`), as they are now after the updates of the case's information (its latest version).
   */
  details(access: Pick<DraftAccess, 'id'>, options?: { caseId?: number }): Promise<SubmissionDetails>;
  /** A submitted file, if the download window is open (410 after). */
  file(access: Pick<DraftAccess, 'id'>, fileId: string): Promise<SubmittedFile & { files?: SubmittedFile[] }>;
  /** Signed links to every file, valid LINK_TTL_MS. */
  links(
    access: Pick<DraftAccess, 'id'>,
  ): Promise<{ expiresAt: string; files: (Omit<SubmittedFile, 'storageKey'> & { url: string })[] }>;
  /**
   * The draft whose submission became this "Find my case" application (a logged-in applicant's way back
   * to the downloads); 404 when the application was not submitted online.
   */
  draftOfApplication(applicationId: number): Promise<{ id: number }>;
  /** The draft a signed link opens (403 for a bad signature, 410 for an expired link). */
  verifyLink(
    applicationNo: string,
    fileId: string,
    expires: string,
    signature: string,
  ): Promise<{ id: number }>;
}

export function createSubmissionService({
  db,
  clock,
  documents,
  messages,
  linkSecret,
  logger,
}: {
  db: Db;
  clock: Clock;
  documents: DocumentService;
  messages: MessageService;
  linkSecret: string | Buffer;
  logger: Logger;
}): SubmissionService {
  const links = downloadLinks(linkSecret, clock);

  async function existing(draftId: number) {
    const [row] = await db
      .select({ submission: submissions, applicationNo: drafts.applicationNo })
      .from(submissions)
      .innerJoin(drafts, eq(drafts.id, submissions.draftId))
      .where(eq(submissions.draftId, draftId));
    return row;
  }
  const toData = (applicationNo: string, s: { submittedAt: Date; downloadUntil: Date }): SubmissionData => ({
    applicationNo,
    submittedAt: s.submittedAt.toISOString(),
    downloadUntil: s.downloadUntil.toISOString(),
  });

  async function latestSigned(draftId: number) {
    const [row] = await db
      .select()
      .from(signingRequests)
      .where(and(eq(signingRequests.draftId, draftId), eq(signingRequests.status, 'signed')))
      .orderBy(desc(signingRequests.id))
      .limit(1);
    return row;
  }

  async function submittedFiles(
    draftId: number,
  ): Promise<{ files: SubmittedFile[]; submission: NonNullable<Awaited<ReturnType<typeof existing>>> }> {
    const found = await existing(draftId);
    if (!found) throw new NotFoundError('submission.notSubmitted');
    const [request] = await db
      .select()
      .from(signingRequests)
      .where(eq(signingRequests.id, found.submission.signingRequestId));
    if (!request) throw new Error('submission without its signing request');
    const no = found.applicationNo;
    const signed = request.documents as SignedDocument[];
    const files: SubmittedFile[] = [
      {
        id: 'application',
        kind: 'application',
        fileName: `${no} application form.pdf`,
        storageKey: request.pdfStorageKey,
      },
      ...signed.map((d) => ({
        id: `document-${d.id}`,
        kind: 'document' as const,
        documentType: d.documentType,
        fileName: `${no} ${d.fileName}`,
        bytes: d.bytes,
        storageKey: d.storageKey,
      })),
      { id: 'archive', kind: 'archive', fileName: `${no} documents.zip` },
    ];
    return { files, submission: found };
  }

  return {
    async submit(access, idempotencyKey, language) {
      if (!IDEMPOTENCY_KEY.test(idempotencyKey))
        throw fieldError(['Idempotency-Key'], 'submission.idempotencyKey');
      /** A submission already made: the same answer for the same key, 409 for another. */
      const answerOf = (done: NonNullable<Awaited<ReturnType<typeof existing>>>) => {
        const data = toData(done.applicationNo, done.submission);
        if (done.submission.idempotencyKey === idempotencyKey) return data;
        throw new AlreadySubmittedError(data);
      };
      const before = await existing(access.id);
      if (before) return answerOf(before);
      let ready;
      try {
        ready = await readyApplication(db, documents, access, clock.now());
      } catch (e) {
        // A parallel request submitted it since `existing` was read: answer as to a retry.
        const done = e instanceof DraftSubmittedError ? await existing(access.id) : undefined;
        if (done) return answerOf(done);
        throw e;
      }
      const request = await latestSigned(access.id);
      if (!request) throw new SignatureRequiredError(false);
      if (!isSignatureCurrent(request, ready.draft.answers, ready.documents))
        throw new SignatureRequiredError(true);

      const { draft, definition, answers } = ready;
      const now = clock.now();
      const downloadUntil = addMs(now, DOWNLOAD_DAYS * DAY_MS);
      const premises = fieldsOf(definition).find((f) => f.field.kind === 'address');
      const made = await db.transaction(async (tx) => {
        // A self-certification's case, its rules asked again under the case's row lock (the letter as
        // issued now: docs/flows/case-rules.md).
        const certified = ready.certifiedCase
          ? await certifiedCaseLocked(tx, definition, answers, ready.certifiedCase, now)
          : undefined;
        // The lock: parallel submits wait here; the first marks the draft, the others find it marked.
        const [marked] = await tx
          .update(drafts)
          .set({ submittedAt: now, validUntil: downloadUntil })
          .where(and(eq(drafts.id, draft.id), isNull(drafts.submittedAt)))
          .returning({ id: drafts.id });
        if (!marked) return undefined;
        const [application] = await tx
          .insert(applications)
          .values({
            applicationNo: draft.applicationNo,
            formCode: definition.code,
            applicationType: definition.applicationType,
            status: 'SUBMITTED',
            applicantNameEn: str(answers.applicantNameEn),
            applicantNameZh: str(answers.applicantNameZh),
            email: ready.verified.email ?? null,
            mobile: ready.verified.mobile ?? null,
            language,
            premisesAddressEn: premises
              ? answerLines(premises.field, answers[premises.field.id], 'en').join(', ') || null
              : null,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: applications.id });
        if (!application) throw new Error('application not recorded');
        if (certified)
          await recordSelfCertification(
            tx,
            { applicationId: application.id, applicationNo: draft.applicationNo },
            certified,
            answers,
            now,
          );
        const [history] = await tx
          .insert(applicationHistory)
          .values({
            applicationId: application.id,
            submissionDate: now,
            documentType: 'APPLICATION_FORM',
            status: 'SUBMITTED',
            submittedBy: 'APPLICANT',
            date: now,
          })
          .returning({ id: applicationHistory.id });
        // The documents now belong to the case: the signed form and each document, by reference.
        const signed = request.documents as SignedDocument[];
        await tx.insert(caseDocuments).values([
          {
            applicationId: application.id,
            historyId: history?.id ?? null,
            kind: 'application',
            storageKey: request.pdfStorageKey,
            fileName: 'application form.pdf',
            sha256: request.pdfSha256,
            createdAt: now,
            downloadUntil,
          },
          ...signed.map((d) => ({
            applicationId: application.id,
            historyId: history?.id ?? null,
            kind: d.documentType,
            storageKey: d.storageKey,
            fileName: d.fileName,
            bytes: d.bytes,
            sha256: d.sha256,
            createdAt: now,
            downloadUntil,
          })),
        ]);
        await tx.insert(submissions).values({
          draftId: draft.id,
          applicationId: application.id,
          idempotencyKey,
          signingRequestId: request.id,
          submittedAt: now,
          downloadUntil,
        });
        return true;
      });
      const after = await existing(access.id);
      if (!after) throw new Error('submission not found after its transaction');
      if (!made) return answerOf(after);
      const data = toData(after.applicationNo, after.submission);
      const channel = ready.verified.email ? 'email' : 'sms';
      const to = ready.verified.email ?? ready.verified.mobile ?? '';
      // A durable job: sent once by whichever process takes it, retried when the sender fails. The
      // submission stands even if queueing fails now (logged): the applicant sees it in Find my case.
      await messages
        .sendAcknowledgement({
          channel,
          to,
          language,
          applicationNo: draft.applicationNo,
          formCode: definition.code,
          submittedAt: now,
        })
        .catch((err: unknown) => logger.error({ err }, 'acknowledgement not queued'));
      // A self-certification is told to the applicant of the case it certifies, too.
      const notice = ready.certifiedCase
        ? selfCertificationNotice(ready.certifiedCase, draft.applicationNo, now)
        : undefined;
      if (notice)
        await messages
          .sendCaseNotice(notice)
          .catch((err: unknown) => logger.error({ err }, 'self-certification notice not queued'));
      return data;
    },

    async details(access, options = {}) {
      const { files, submission } = await submittedFiles(access.id);
      const [draft] = await db.select().from(drafts).where(eq(drafts.id, access.id));
      const definition = draft ? formByKey(draft.formKey) : undefined;
      if (!draft || !definition) throw new UnauthorizedError('drafts.unauthorized');
      const a =
        options.caseId === undefined
          ? openAnswers(draft.answers as Record<string, unknown>)
          : await currentAnswers(db, options.caseId);
      return {
        ...toData(submission.applicationNo, submission.submission),
        formKey: definition.key,
        formCode: definition.code,
        applicationType: definition.applicationType,
        applicant: {
          nameEn: str(a.applicantNameEn),
          nameZh: str(a.applicantNameZh),
          email: str(a.applicantEmail),
          mobile: str(a.applicantMobile),
        },
        contactPerson: {
          name: str(a.contactName),
          email: str(a.contactEmail),
          mobile: str(a.contactMobile),
          telephone: str(a.contactTelephone),
        },
        downloadable: clock.now() < submission.submission.downloadUntil,
        files: files.map(({ storageKey: _key, ...f }) => f),
      };
    },

    async file(access, fileId) {
      const { files, submission } = await submittedFiles(access.id);
      if (clock.now() >= submission.submission.downloadUntil) throw new DownloadExpiredError();
      const file = files.find((f) => f.id === fileId);
      if (!file) throw new NotFoundError('submission.fileNotFound');
      return file.kind === 'archive' ? { ...file, files: files.filter((f) => f.kind !== 'archive') } : file;
    },

    async links(access) {
      const { files, submission } = await submittedFiles(access.id);
      if (clock.now() >= submission.submission.downloadUntil) throw new DownloadExpiredError();
      const expires = Math.min(
        clock.now().getTime() + LINK_TTL_MS,
        submission.submission.downloadUntil.getTime(),
      );
      const no = submission.applicationNo;
      return {
        expiresAt: new Date(expires).toISOString(),
        files: files.map(({ storageKey: _key, ...f }) => ({
          ...f,
          url: links.url(no, f.id, expires),
        })),
      };
    },

    async draftOfApplication(applicationId) {
      const [row] = await db
        .select({ id: submissions.draftId })
        .from(submissions)
        .where(eq(submissions.applicationId, applicationId));
      if (!row) throw new NotFoundError('submission.notSubmitted');
      return row;
    },

    async verifyLink(applicationNo, fileId, expires, signature) {
      links.check(applicationNo, fileId, expires, signature);
      const [draft] = await db
        .select({ id: drafts.id })
        .from(drafts)
        .where(eq(drafts.applicationNo, applicationNo));
      if (!draft) throw new NotFoundError('submission.notSubmitted');
      return draft;
    },
  };
}
