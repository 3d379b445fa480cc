import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, Router } from 'express';
import { Zip, ZipPassThrough } from 'fflate';
import { z } from 'zod';
import type { DocumentStorage } from '../../adapters/storage';
import { sendOk } from '../../http/envelope';
import { BadRequestError } from '../../http/errors';
import { requestLanguage } from '../../http/i18n';
import { authorise, currentSession, requireSession, type SessionService } from '../auth';
import type { DraftService } from './drafts.service';
import { type SubmissionService, type SubmittedFile } from './submission.service';
import { currentDraft, requireDraftToken } from './drafts.routes';
import { contentDisposition } from '../../http/download';
import { audited, record } from '../shared';

const idempotencyKeyOf = (req: Request) => req.get('idempotency-key') ?? '';
const linkQuery = z.object({
  expires: z.string().regex(/^\d{1,15}$/),
  signature: z.string().min(1).max(100),
});
const fileIdParam = z.string().regex(/^(application|archive|document-\d{1,12})$/);

/** Streams one stored file, or the archive of all of them, as a download. */
async function sendSubmittedFile(
  res: Response,
  storage: DocumentStorage,
  file: SubmittedFile & { files?: SubmittedFile[] },
) {
  const headers = {
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Disposition': contentDisposition(file.fileName),
  };
  if (file.kind !== 'archive') {
    const stream = storage.get(file.storageKey ?? '');
    res.status(200).set({ ...headers, 'Content-Type': 'application/pdf' });
    // A read error (a file gone from the storage) rejects: the error handler ends the connection.
    await pipeline(stream, res);
    return;
  }
  res.status(200).set({ ...headers, 'Content-Type': 'application/zip' });
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      res.destroy(err);
      return;
    }
    res.write(chunk);
    if (final) res.end();
  });
  const used = new Set<string>();
  for (const entry of file.files ?? []) {
    // Names inside the archive: unique, without any path.
    const base = entry.fileName.replace(/[\\/]/g, '_');
    let name = base;
    for (let i = 2; used.has(name); i += 1) name = base.replace(/(\.pdf)?$/i, ` (${i})$1`);
    used.add(name);
    const part = new ZipPassThrough(name);
    zip.add(part);
    const stream: Readable = storage.get(entry.storageKey ?? '');
    for await (const chunk of stream) part.push(chunk as Uint8Array);
    part.push(new Uint8Array(0), true);
  }
  zip.end();
}

/**
 * Submission and its downloads: /api/drafts/:applicationNo/submission (Bearer: the draft's token), the
 * signed download links /api/submissions/:applicationNo/files/:fileId, and the same submission for a
 * logged-in applicant at /api/application/submission. Answers: docs/api.md.
 */
export function submissionRouters({
  drafts,
  submission,
  storage,
  sessions,
}: {
  drafts: DraftService;
  submission: SubmissionService;
  storage: DocumentStorage;
  sessions: SessionService;
}): { perDraft: Router; links: Router; bySession: Router } {
  const router = Router({ mergeParams: true });
  const authorised = requireDraftToken(drafts);
  const submitted = requireDraftToken(drafts, { anyValidity: true });
  const smallJson = express.json({ limit: '10kb' });
  router.post('/', authorised, smallJson, async (req, res) => {
    const draft = currentDraft(res);
    const done = await audited(
      req,
      'application.submit',
      () => submission.submit(draft, idempotencyKeyOf(req), requestLanguage(req)),
      () => ({ caseNo: draft.applicationNo, reference: draft.applicationNo }),
    );
    sendOk(req, res, done, 'submission.submitted');
  });
  router.get('/', submitted, async (req, res) => {
    sendOk(req, res, await submission.details(currentDraft(res)));
  });
  router.post('/links', submitted, smallJson, async (req, res) => {
    sendOk(req, res, await submission.links(currentDraft(res)));
  });
  router.get('/files/:fileId', submitted, async (req, res) => {
    const id = fileIdParam.safeParse(req.params.fileId);
    if (!id.success) throw new BadRequestError('submission.fileNotFound');
    const draft = currentDraft(res);
    const file = await submission.file(draft, id.data);
    await record(req, {
      action: 'document.download',
      caseNo: draft.applicationNo,
      detail: { file: id.data },
    });
    await sendSubmittedFile(res, storage, file);
  });

  // ---- Signed links (no bearer: a link in the page, valid a few minutes) ----
  const links = Router({ mergeParams: true });
  links.get('/:applicationNo/files/:fileId', async (req, res) => {
    const id = fileIdParam.safeParse(req.params.fileId);
    const query = linkQuery.safeParse(req.query);
    if (!id.success || !query.success) throw new BadRequestError('submission.linkInvalid');
    const draft = await submission.verifyLink(
      String(req.params.applicationNo),
      id.data,
      query.data.expires,
      query.data.signature,
    );
    const file = await submission.file(draft, id.data);
    // Whoever holds the link: anonymous, on the case the link names.
    await record(req, {
      action: 'document.download',
      caseNo: String(req.params.applicationNo),
      reference: String(req.params.applicationNo),
      detail: { file: id.data, by: 'link' },
    });
    await sendSubmittedFile(res, storage, file);
  });

  // ---- The same submission for a logged-in applicant (Find my case): back to the downloads any day ----
  const bySession = Router();
  // The applicant's only: an AP or RSE never downloads the signed application (docs/appointee-visibility.md).
  bySession.use(requireSession(sessions), authorise('case.information'));
  /**
   * GET /api/application/submission  (Bearer: a Find my case session)
   * 200 data: the Application Details and files of the session's application, as GET submission of a draft,
   * the applicant and contact person as the case's information is now (after its updates);
   * 401 UNAUTHORIZED; 403 FORBIDDEN an AP or RSE; 404 NOT_FOUND the application was not submitted online.
   */
  bySession.get('/', async (req, res) => {
    const { applicationId } = currentSession(res);
    const draft = await submission.draftOfApplication(applicationId);
    sendOk(req, res, await submission.details(draft, { caseId: applicationId }));
  });
  /**
   * POST /api/application/submission/links  (Bearer: a Find my case session)
   * 200 data { expiresAt, files: [{ id, kind, documentType?, fileName, url }] }: links valid 10 minutes;
   * 401; 403 and 404 as above; 410 DOWNLOAD_EXPIRED after the 7 days.
   */
  bySession.post('/links', smallJson, async (req, res) => {
    const draft = await submission.draftOfApplication(currentSession(res).applicationId);
    sendOk(req, res, await submission.links(draft));
  });

  return { perDraft: router, links, bySession };
}
