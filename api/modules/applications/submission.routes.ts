import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type Response, Router } from 'express';
import { Zip, ZipPassThrough } from 'fflate';
import { z } from 'zod';
import type { DocumentStorage } from '../../adapters/storage';
import { sendOk } from '../../http/envelope';
import { BadRequestError } from '../../http/errors';
import { requestLanguage } from '../../http/i18n';
import { currentSession, requireSession, type SessionService } from '../auth';
import type { DraftService } from './drafts.service';
import { type SubmissionService, type SubmittedFile } from './submission.service';
import { currentDraft, requireDraftToken } from './drafts.routes';
import { contentDisposition } from '../../http/download';

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
    const done = await submission.submit(currentDraft(res), idempotencyKeyOf(req), requestLanguage(req));
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
    await sendSubmittedFile(res, storage, await submission.file(currentDraft(res), id.data));
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
    await sendSubmittedFile(res, storage, await submission.file(draft, id.data));
  });

  // ---- The same submission for a logged-in applicant (Find my case): back to the downloads any day ----
  const bySession = Router();
  const loggedIn = requireSession(sessions);
  /**
   * GET /api/application/submission  (Bearer: a Find my case session)
   * 200 data: the Application Details and files of the session's application, as GET submission of a draft;
   * 401 UNAUTHORIZED; 404 NOT_FOUND the application was not submitted online (no files to download).
   */
  bySession.get('/', loggedIn, async (req, res) => {
    const draft = await submission.draftOfApplication(currentSession(res).applicationId);
    sendOk(req, res, await submission.details(draft));
  });
  /**
   * POST /api/application/submission/links  (Bearer: a Find my case session)
   * 200 data { expiresAt, files: [{ id, kind, documentType?, fileName, url }] }: links valid 10 minutes;
   * 401; 404 as above; 410 DOWNLOAD_EXPIRED after the 7 days.
   */
  bySession.post('/links', loggedIn, smallJson, async (req, res) => {
    const draft = await submission.draftOfApplication(currentSession(res).applicationId);
    sendOk(req, res, await submission.links(draft));
  });

  return { perDraft: router, links, bySession };
}
