import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { z } from 'zod';
import { caseActionBodySchema } from '../../../machines/rules/case';
import { historyQuerySchema } from '../../../machines/rules/history';
import type { DocumentStorage } from '../../adapters/storage';
import { sendOk } from '../../http/envelope';
import { requestLanguage } from '../../http/i18n';
import { currentSession, requireSession, authorise, ownCaseOnly, type SessionService } from '../auth';
import type { CaseService } from './cases.service';
import type { HistoryService } from './history';
import { contentDisposition } from '../../http/download';
import type { Clock } from '../../clock';
import { caseMessageSchema } from '../../../machines/rules/staff';
import type { Db } from '../../../drizzle/db';
import { requireJson } from '../../http/require-json';
import { sendApplicantMessage } from './case-messages';
import { audited } from '../shared';

const formParam = z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/);
const documentParam = z.coerce.number().int().positive().max(2_147_483_647);

/** /api/cases: the case of the logged-in session (Find my case) and the follow-ups on it. docs/api.md. */
export function casesRouter({
  cases,
  sessions,
  storage,
}: {
  cases: CaseService;
  sessions: SessionService;
  storage: DocumentStorage;
}): Router {
  const router = Router();
  router.use(requireSession(sessions));
  router.use(ownCaseOnly);

  /**
   * Every endpoint: 400 a malformed `?applicationNo=`, 403 FORBIDDEN one that is not the session's.
   *
   * GET /api/cases/current  (Bearer)
   * 200 data CaseData: status, the follow-ups with whether each is allowed now, the history with its
   *     documents, the facts forms prefill from, the calendar (today, holidays);
   * 401 UNAUTHORIZED; 403 FORBIDDEN a role that may not view cases.
   */
  router.get('/current', authorise('case.view'), async (req, res) => {
    sendOk(req, res, await cases.current(currentSession(res)));
  });

  /**
   * POST /api/cases/current/actions/:form  (Bearer, Idempotency-Key) body { answers }
   * 200 data CaseActionResult (the same again for the same key);
   * 400 BAD_REQUEST field errors (answers.<field>, Idempotency-Key); 401; 403 role;
   * 404 NOT_FOUND an unknown follow-up form; 409 CASE_ACTION_NOT_ALLOWED (names the status) or
   * IDEMPOTENCY_KEY_REUSED; 429 CASE_RATE_LIMITED with Retry-After.
   */
  router.post('/current/actions/:form', authorise('case.act'), async (req, res) => {
    const form = formParam.parse(req.params.form);
    const body = caseActionBodySchema.parse(req.body);
    const result = await cases.act(
      currentSession(res),
      form,
      body,
      req.get('idempotency-key') ?? '',
      requestLanguage(req),
    );
    sendOk(req, res, result);
  });

  /**
   * GET /api/cases/current/documents/:id  (Bearer)
   * 200 the PDF as a download; 400 a malformed id; 401; 403 role; 404 not a document of this case;
   * 410 DOWNLOAD_EXPIRED past its download window.
   */
  router.get('/current/documents/:id', authorise('case.document'), async (req, res) => {
    const id = documentParam.parse(req.params.id);
    const file = await audited(
      req,
      'document.download',
      () => cases.document(currentSession(res), id),
      () => ({ detail: { documentId: id } }),
    );
    res.status(200).set({
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'application/pdf',
      'Content-Disposition': contentDisposition(file.fileName),
    });
    await pipeline(storage.get(file.storageKey), res);
  });

  /**
   * GET /api/cases/current/information.pdf  (Bearer)
   * 200 the application PDF of the case's information as it is now (the latest version, after any update),
   * in the caller's language; 401; 403 an AP or RSE (the applicant's only, docs/appointee-visibility.md);
   * 404 a case not made with a form of the catalogue.
   */
  router.get('/current/information.pdf', authorise('case.information'), async (req, res) => {
    const file = await audited(
      req,
      'document.download',
      () => cases.informationPdf(currentSession(res), requestLanguage(req)),
      () => ({ detail: { file: 'information' } }),
    );
    res
      .status(200)
      .set({
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Type': 'application/pdf',
        'Content-Disposition': contentDisposition(file.fileName),
      })
      .end(Buffer.from(file.bytes));
  });

  return router;
}

/** /api/application/history: the application's history rows (spec §4). docs/api.md. */
export function historyRouter({
  history,
  sessions,
}: {
  history: HistoryService;
  sessions: SessionService;
}): Router {
  const router = Router();

  /**
   * GET /api/application/history[?applicationNo=…]  (Bearer)
   * 200 data { applicationNo, rows: [{ submissionDate, documentType, status, submittedBy, date }] },
   *     newest first, codes rather than text;
   * 400 BAD_REQUEST a malformed applicationNo; 401 UNAUTHORIZED; 403 FORBIDDEN another application's number.
   */
  router.get('/', requireSession(sessions), async (req, res) => {
    const { applicationNo } = historyQuerySchema.parse(req.query);
    sendOk(req, res, await history.forSession(currentSession(res), applicationNo));
  });

  return router;
}

/**
 * POST /api/cases/current/messages (Bearer) body { body }: a message from the applicant to the case
 * officer, kept on the case (docs/decisions/022-case-officer-console.md). 200 the message; 400 empty or too long; 401; 403 role or another
 * case named by `?applicationNo=`;
 * 409 CASE_ACTION_NOT_ALLOWED when the case is no longer open.
 */
export function caseMessagesRouter({
  db,
  clock,
  sessions,
}: {
  db: Db;
  clock: Clock;
  sessions: SessionService;
}): Router {
  const router = Router();
  router.post(
    '/',
    requireJson,
    requireSession(sessions),
    ownCaseOnly,
    authorise('case.act'),
    async (req, res) => {
      const { body } = caseMessageSchema.parse(req.body);
      sendOk(
        req,
        res,
        await sendApplicantMessage(db, currentSession(res), body, clock.now(), requestLanguage(req)),
      );
    },
  );
  return router;
}
