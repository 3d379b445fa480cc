import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import express, { type Request, type Response, Router } from 'express';
import { Zip, ZipPassThrough } from 'fflate';
import { z } from 'zod';
import type { DocumentStorage } from '../adapters/storage';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../envelope';
import { ApiError, BadRequestError, UnsupportedMediaTypeError } from '../errors';
import { requestLanguage } from '../i18n';
import type { DocumentService } from '../services/documents';
import type { DraftService } from '../services/drafts';
import type { SigningService } from '../services/signing';
import { contentDisposition, type SubmissionService, type SubmittedFile } from '../services/submission';
import { fieldError } from '../services/drafts';
import { currentDraft, requireDraftToken } from './drafts';
import { currentSession, requireSession } from '../middleware/auth';
import type { SessionService } from '../services/sessions';

/** The largest e-Cert signature file accepted (a CMS signature with its certificate chain is a few kB). */
export const SIGNATURE_MAX_BYTES = 64 * 1024;

const isMultipart = (req: Request) => req.is('multipart/form-data') === 'multipart/form-data';

function requireMultipart(req: Request) {
  if (!isMultipart(req)) throw new UnsupportedMediaTypeError();
}

/** One small file field of a multipart body, in memory (at most `maxBytes`, else 413). */
function readSmallFile(req: IncomingMessage, field: string, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes, fields: 10 } });
    } catch {
      reject(new BadRequestError('documents.badMultipart'));
      return;
    }
    let found: Uint8Array | undefined;
    let failed: ApiError | undefined;
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failed = new ApiError(413, 'PAYLOAD_TOO_LARGE', 'signing.ecert.tooLarge', null, {
          params: { kb: Math.round(maxBytes / 1024) },
        });
        req.unpipe(parser);
        stream.resume();
        reject(failed);
      });
      stream.on('end', () => {
        if (name === field && !failed) found = Buffer.concat(chunks);
      });
    });
    parser.on('error', () => reject(new BadRequestError('documents.badMultipart')));
    parser.on('close', () => {
      if (failed) return;
      if (!found || found.length === 0) reject(fieldError([field], 'signing.ecert.noFile'));
      else resolve(found);
    });
    req.pipe(parser);
  });
}

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

const idempotencyKeyOf = (req: Request) => req.get('idempotency-key') ?? '';
const requestIdParam = z.string().regex(/^[0-9a-f]{32}$/);
const documentTypeParam = z.string().regex(/^[A-Za-z0-9]{1,60}$/);
const linkQuery = z.object({
  expires: z.string().regex(/^\d{1,15}$/),
  signature: z.string().min(1).max(100),
});
const fileIdParam = z.string().regex(/^(application|archive|document-\d{1,12})$/);

/**
 * /api/drafts/:applicationNo/{documents,signing,submission} (Bearer: the draft's token) and the signed
 * download links /api/submissions/:applicationNo/files/:fileId. Mounted before the JSON parser: uploads
 * are streamed (api/services/upload-receiver.ts). Each route's answers are listed in docs/api.md.
 */
export function applicationFilesRouters({
  drafts,
  documents,
  signing,
  submission,
  storage,
  sessions,
}: {
  drafts: DraftService;
  documents: DocumentService;
  signing: SigningService;
  submission: SubmissionService;
  storage: DocumentStorage;
  sessions: SessionService;
}): { perDraft: Router; links: Router; bySession: Router } {
  const perDraft = Router({ mergeParams: true });
  const authorised = requireDraftToken(drafts);
  const submitted = requireDraftToken(drafts, { anyValidity: true });
  const smallJson = express.json({ limit: '10kb' });

  // ---- Documents ----
  perDraft.get('/documents', authorised, async (req, res) => {
    sendOk(req, res, await documents.list(currentDraft(res)));
  });
  perDraft.post('/documents', authorised, async (req, res) => {
    requireMultipart(req);
    let saved;
    try {
      saved = await documents.upload(currentDraft(res), req);
    } catch (e) {
      // The rest of a refused body is not read: the connection cannot carry another request.
      if (e instanceof ApiError && e.status === 413) res.set('Connection', 'close');
      throw e;
    }
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'documents.uploaded', saved);
  });
  perDraft.delete('/documents/:documentType', authorised, async (req, res) => {
    const type = documentTypeParam.safeParse(req.params.documentType);
    if (!type.success) throw new BadRequestError('documents.typeUnknown');
    await documents.remove(currentDraft(res), type.data);
    res.status(204).end();
  });

  // ---- Signing ----
  perDraft.post('/signing/iamsmart', authorised, smallJson, async (req, res) => {
    const started = await signing.startIamSmart(currentDraft(res), requestLanguage(req));
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'signing.started', started);
  });
  perDraft.get('/signing/iamsmart/:requestId', authorised, async (req, res) => {
    const id = requestIdParam.safeParse(req.params.requestId);
    if (!id.success) throw new BadRequestError('signing.notFound');
    sendOk(req, res, await signing.iamSmartStatus(currentDraft(res), id.data));
  });
  perDraft.delete('/signing/iamsmart/:requestId', authorised, async (req, res) => {
    const id = requestIdParam.safeParse(req.params.requestId);
    if (!id.success) throw new BadRequestError('signing.notFound');
    await signing.cancelIamSmart(currentDraft(res), id.data);
    res.status(204).end();
  });
  perDraft.get('/signing/ecert', authorised, async (req, res) => {
    sendOk(req, res, await signing.prepareEcert(currentDraft(res), requestLanguage(req)));
  });
  perDraft.post('/signing/ecert', authorised, async (req, res) => {
    requireMultipart(req);
    const signature = await readSmallFile(req, 'signature', SIGNATURE_MAX_BYTES);
    sendOk(req, res, await signing.verifyEcert(currentDraft(res), signature), 'signing.ecert.signed');
  });

  // ---- Submission ----
  perDraft.post('/submission', authorised, smallJson, async (req, res) => {
    const done = await submission.submit(currentDraft(res), idempotencyKeyOf(req), requestLanguage(req));
    sendOk(req, res, done, 'submission.submitted');
  });
  perDraft.get('/submission', submitted, async (req, res) => {
    sendOk(req, res, await submission.details(currentDraft(res)));
  });
  perDraft.post('/submission/links', submitted, smallJson, async (req, res) => {
    sendOk(req, res, await submission.links(currentDraft(res)));
  });
  perDraft.get('/submission/files/:fileId', submitted, async (req, res) => {
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

  return { perDraft, links, bySession };
}
