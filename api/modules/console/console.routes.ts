import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { applicationNoSchema } from '../../../machines/rules/otp';
import {
  consoleActionBodySchema,
  queueQuerySchema,
  signInSchema,
  staffSettingsSchema,
} from '../../../machines/rules/staff';
import type { DocumentStorage } from '../../adapters/storage';
import { sendOk } from '../../http/envelope';
import { requestLanguage } from '../../http/i18n';
import { requireJson } from '../../http/require-json';
import {
  authoriseStaff,
  currentStaff,
  requireStaff,
  staffToken,
  STAFF_COOKIE,
  type StaffAuthService,
} from '../auth';
import type { ConsoleService } from './console.service';
import { contentDisposition } from '../../http/download';

const eventParam = z.string().regex(/^[a-z]+\.[a-z]+$/);
const documentParam = z.coerce.number().int().positive().max(2_147_483_647);
const keyHeader = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/)
  .optional();
const auditQuerySchema = z.object({
  applicationNo: z.string().trim().max(40).optional(),
  actorRef: z
    .string()
    .trim()
    .regex(/^(staff|session):\d{1,9}$/)
    .optional(),
  event: z
    .string()
    .trim()
    .regex(/^[a-z]+\.[a-z]+$/)
    .optional(),
  from: z.iso.date().optional(),
});

function cookie(req: Request, token: string, maxAge?: number): string {
  const secure = req.secure || process.env.NODE_ENV === 'production' ? '; Secure' : '';
  const age = maxAge === undefined ? '' : `; Max-Age=${maxAge}`;
  return `${STAFF_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/api/staff${secure}${age}`;
}

/**
 * /api/staff: the department's console (docs/console.md). Staff sign in with a password and a
 * TOTP code and get an HttpOnly, SameSite=Strict cookie of their own (no applicant Bearer token is read
 * here, and the cookie opens nothing elsewhere). Every endpoint but the sign-in is authorised by the
 * table of machines/rules/authorisation.ts; 401 without a live staff session, 403 a role not allowed.
 */
export function staffRouter({
  auth,
  console: cases,
  storage,
}: {
  auth: StaffAuthService;
  console: ConsoleService;
  storage: DocumentStorage;
}): Router {
  const router = Router();
  router.use(requireJson);

  /**
   * POST /api/staff/session body { username, password, code } (code: TOTP, or a recovery code)
   * 200 data StaffMe + Set-Cookie; 400 malformed; 401 STAFF_SIGN_IN_FAILED (the same for any wrong part);
   * 429 STAFF_LOCKED with Retry-After after too many failures.
   */
  router.post('/session', async (req, res) => {
    const { token, me } = await auth.signIn(signInSchema.parse(req.body));
    res.set('Set-Cookie', cookie(req, token));
    sendOk(req, res, me);
  });

  /** DELETE /api/staff/session: signs out (200 even without a session) and clears the cookie. */
  router.delete('/session', async (req, res) => {
    await auth.signOut(staffToken(req));
    res.set('Set-Cookie', cookie(req, '', 0));
    sendOk(req, res, null);
  });

  router.use(requireStaff(auth));

  /** GET /api/staff/session: who is signed in (and the idle timeout); 401 otherwise. */
  router.get('/session', (req, res) => {
    sendOk(req, res, auth.me(currentStaff(res)));
  });

  /** GET /api/staff/cases?status=&form=&officer= : the work queue, by the contact details' due date. */
  router.get('/cases', authoriseStaff('console.queue'), async (req, res) => {
    sendOk(req, res, await cases.queue(currentStaff(res), queueQuerySchema.parse(req.query)));
  });

  /** GET /api/staff/cases/:applicationNo: the case with everything about it; 404 unknown. */
  router.get('/cases/:applicationNo', authoriseStaff('console.case.view'), async (req, res) => {
    const applicationNo = applicationNoSchema.parse(req.params.applicationNo);
    sendOk(req, res, await cases.view(currentStaff(res), applicationNo));
  });

  /**
   * POST /api/staff/cases/:applicationNo/actions/:event  body { expectedStatus, answers } (Idempotency-Key
   * optional). 200 ConsoleActionResult; 400 field errors; 403 not the officer's case (the same whether or
   * not it exists); 404 unknown event or case; 409 CASE_CHANGED (the case moved: names the status now) or
   * CASE_ACTION_NOT_ALLOWED (the lifecycle does not allow it in this status).
   */
  router.post(
    '/cases/:applicationNo/actions/:event',
    (req, res, next) =>
      authoriseStaff(req.params.event === 'case.assign' ? 'console.case.assign' : 'console.case.act')(
        req,
        res,
        next,
      ),
    async (req, res) => {
      const applicationNo = applicationNoSchema.parse(req.params.applicationNo);
      const event = eventParam.parse(req.params.event);
      const body = consoleActionBodySchema.parse(req.body);
      const idempotencyKey = keyHeader.parse(req.get('idempotency-key'));
      const result = await cases.act(currentStaff(res), applicationNo, event, body, {
        language: requestLanguage(req),
        address: req.ip ?? req.socket.remoteAddress ?? '',
        idempotencyKey,
      });
      sendOk(req, res, result);
    },
  );

  /** GET /api/staff/cases/:applicationNo/documents/:id[?download=1]: the PDF, shown in the page or saved. */
  router.get('/cases/:applicationNo/documents/:id', authoriseStaff('console.case.view'), async (req, res) => {
    const applicationNo = applicationNoSchema.parse(req.params.applicationNo);
    const file = await cases.document(currentStaff(res), applicationNo, documentParam.parse(req.params.id));
    res.status(200).set({
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'application/pdf',
      'Content-Disposition': contentDisposition(
        file.fileName,
        req.query.download === '1' ? 'attachment' : 'inline',
      ),
    });
    await pipeline(storage.get(file.storageKey), res);
  });

  /** GET /api/staff/audit?applicationNo=&actorRef=&event=&from= : the audit trail, newest first (500 at most). */
  router.get('/audit', authoriseStaff('console.audit'), async (req, res) => {
    const q = auditQuerySchema.parse(req.query);
    sendOk(
      req,
      res,
      await cases.audit({ ...q, from: q.from ? new Date(`${q.from}T00:00:00+08:00`) : undefined }),
    );
  });

  /** GET /api/staff/settings, PUT /api/staff/settings { staffIdleMinutes } (admin): master data of the console. */
  router.get('/settings', authoriseStaff('console.staff'), async (req, res) => {
    sendOk(req, res, await auth.settings());
  });
  router.put('/settings', authoriseStaff('console.staff'), async (req, res) => {
    const settings = staffSettingsSchema.parse(req.body);
    sendOk(req, res, await auth.updateSettings(currentStaff(res), settings, req.ip ?? ''));
  });

  /** GET /api/staff/accounts (admin): the staff accounts (created by the admin command scripts/staff.ts). */
  router.get('/accounts', authoriseStaff('console.staff'), async (req, res) => {
    sendOk(req, res, await auth.accounts());
  });

  return router;
}
