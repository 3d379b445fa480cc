import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { applicationNoSchema } from '../../../machines/rules/otp';
import { consoleActionBodySchema, staffSettingsSchema } from '../../../machines/rules/staff';
import { holderLookupSchema, holderResetSchema } from '../../../machines/rules/staff-holders';
import { signInSchema } from '../../../machines/rules/staff-sign-in';
import {
  staffCreateSchema,
  staffEnrolSchema,
  staffIdParam,
  staffReassignSchema,
} from '../../../machines/rules/staff-admin';
import { queueQuerySchema } from '../../../machines/rules/staff-queue';
import { documentReviewBodySchema } from '../../../machines/rules/document-review';
import { hongKongDate } from '../../../machines/rules/working-days';
import type { DocumentStorage } from '../../adapters/storage';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../../http/envelope';
import { requestLanguage } from '../../http/i18n';
import { requireJson } from '../../http/require-json';
import {
  authoriseStaff,
  currentStaff,
  requireStaff,
  staffToken,
  STAFF_COOKIE,
  StaffEnrolmentRequiredError,
  type StaffAdminService,
  type StaffAuthService,
} from '../auth';
import type { ConsoleService } from './console.service';
import { inboxRouter, type InboxService } from './inbox.routes';
import type { PerformanceReader } from './performance';
import type { HolderReset } from '../appointments';
import { contentDisposition } from '../../http/download';
import { audited, record } from '../shared';

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
    .regex(/^(staff|session|draft):\d{1,9}$/)
    .optional(),
  event: z
    .string()
    .trim()
    .regex(/^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/)
    .max(60)
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
  holders,
  admin,
  inbox,
  decisions,
  performance,
}: {
  auth: StaffAuthService;
  admin: StaffAdminService;
  console: ConsoleService;
  storage: DocumentStorage;
  holders: HolderReset;
  inbox: InboxService;
  /** Decisions by two people and internal notes (decisions.routes.ts). */
  decisions?: Router;
  performance: PerformanceReader;
}): Router {
  const router = Router();
  router.use(requireJson);

  /**
   * POST /api/staff/session body { username, password, code } (code: TOTP, or a recovery code)
   * 200 data StaffMe + Set-Cookie; 400 malformed; 401 STAFF_SIGN_IN_FAILED (the same for any wrong part);
   * 429 STAFF_LOCKED with Retry-After: too many failures of this account from this address;
   * 429 RATE_LIMITED with Retry-After: too many failures from this address, or of this account from
   * addresses it has not signed in from (docs/decisions/030-sign-in-lockouts.md).
   */
  router.post('/session', async (req, res) => {
    const input = signInSchema.parse(req.body);
    const address = req.ip ?? req.socket.remoteAddress ?? '';
    const { token, me } = await audited(
      req,
      'staff.signIn',
      () => auth.signIn(input, address),
      ({ me: signedIn }) => ({ actor: { role: signedIn.role, ref: `staff:${signedIn.id}` } }),
    );
    res.set('Set-Cookie', cookie(req, token));
    sendOk(req, res, me);
  });

  /** DELETE /api/staff/session: signs out (200 even without a session) and clears the cookie. */
  router.delete('/session', async (req, res) => {
    const ended = await auth.signOut(staffToken(req));
    if (ended)
      await record(req, { action: 'staff.signOut', actor: { role: ended.role, ref: `staff:${ended.id}` } });
    res.set('Set-Cookie', cookie(req, '', 0));
    sendOk(req, res, null);
  });

  router.use(requireStaff(auth));

  // A TOTP waiting for enrolment (a new account, an admin's reset: decision 036): the session reaches
  // who is signed in and the enrolment, nothing else, until the officer confirms a code of the new TOTP.
  router.use((req, res, next) => {
    if (currentStaff(res).staff.totpPending && req.path !== '/session' && req.path !== '/enrolment')
      throw new StaffEnrolmentRequiredError();
    next();
  });

  /**
   * GET /api/staff/enrolment: the TOTP to enrol (otpauth:// URI for the QR, and the secret to type);
   * 409 STAFF_NOT_PENDING nothing to enrol. POST /api/staff/enrolment { code }: a code of it confirms the
   * enrolment; 200 { recoveryCodes } (new, shown once); 422 STAFF_CODE_WRONG; 409 STAFF_NOT_PENDING.
   */
  router.get('/enrolment', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    sendOk(req, res, await admin.enrolment(currentStaff(res)));
  });
  router.post('/enrolment', async (req, res) => {
    const { code } = staffEnrolSchema.parse(req.body);
    res.set('Cache-Control', 'no-store');
    sendOk(req, res, await admin.enrol(currentStaff(res), code));
  });

  router.use(inboxRouter(inbox));

  /** GET /api/staff/session: who is signed in (and the idle timeout); 401 otherwise. */
  router.get('/session', (req, res) => {
    sendOk(req, res, auth.me(currentStaff(res)));
  });

  /**
   * GET /api/staff/cases?status=&form=&officer=&q=&applicationNo=&page= : a page of the work queue, open
   * cases first, by the contact details' due date. 200 QueuePage; 400 a malformed filter (the envelope).
   */
  router.get('/cases', authoriseStaff('console.queue'), async (req, res) => {
    sendOk(req, res, await cases.queue(currentStaff(res), queueQuerySchema.parse(req.query)));
  });

  /**
   * GET /api/staff/cases.csv?status=&form=&officer=&q=&applicationNo= : every case the filters find, as a
   * CSV file in the officer's language (docs/console.md). 200 text/csv; 400 a malformed filter (the envelope).
   */
  router.get('/cases.csv', authoriseStaff('console.queue'), async (req, res) => {
    const query = queueQuerySchema.parse(req.query);
    const csv = cases.queueCsv(currentStaff(res), query, requestLanguage(req));
    res.status(200).set({
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': contentDisposition(`work-queue-${hongKongDate(new Date())}.csv`, 'attachment'),
    });
    await pipeline(Readable.from(csv), res);
  });

  /** GET /api/staff/cases/:applicationNo: the case with everything about it; 404 unknown. */
  router.get('/cases/:applicationNo', authoriseStaff('console.case.view'), async (req, res) => {
    const applicationNo = applicationNoSchema.parse(req.params.applicationNo);
    // The case view shows the applicant's HKIC and contacts: each view is recorded.
    const view = await audited(
      req,
      'case.viewPersonalData',
      () => cases.view(currentStaff(res), applicationNo),
      () => ({ caseNo: applicationNo }),
    );
    // Opening the case clears its "New activity" for this officer (docs/decisions/039-officer-inbox.md).
    await inbox.seen(currentStaff(res), applicationNo);
    sendOk(req, res, view);
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
    const documentId = documentParam.parse(req.params.id);
    const file = await audited(
      req,
      'document.download',
      () => cases.document(currentStaff(res), applicationNo, documentId),
      () => ({ caseNo: applicationNo, detail: { documentId } }),
    );
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

  /**
   * POST /api/staff/cases/:applicationNo/documents/:id/review body { status, reason?, expectedVersion }
   * (docs/decisions/043-document-review.md). 200 DocumentReviewResult; 400 field errors ("needs
   * replacement" without a reason); 403 not the officer's case (the same whether or not it exists); 404
   * unknown case or document; 409 DOCUMENT_REVIEW_CHANGED (reviewed meanwhile: names who and how).
   */
  router.post(
    '/cases/:applicationNo/documents/:id/review',
    authoriseStaff('console.case.act'),
    async (req, res) => {
      const applicationNo = applicationNoSchema.parse(req.params.applicationNo);
      const documentId = documentParam.parse(req.params.id);
      const body = documentReviewBodySchema.parse(req.body);
      sendOk(
        req,
        res,
        await cases.review(currentStaff(res), applicationNo, documentId, body, {
          language: requestLanguage(req),
        }),
      );
    },
  );

  /** GET /api/staff/audit?applicationNo=&actorRef=&event=&from= : the audit trail, newest first (500 at most). */
  router.get('/audit', authoriseStaff('console.audit'), async (req, res) => {
    const q = auditQuerySchema.parse(req.query);
    sendOk(
      req,
      res,
      await cases.audit({ ...q, from: q.from ? new Date(`${q.from}T00:00:00+08:00`) : undefined }),
    );
  });

  /**
   * GET /api/staff/performance (senior officer, admin): open cases by stage, the pledges met by month and
   * the median working days to a certificate (docs/decisions/044-pledges.md). 200 PerformanceData.
   */
  router.get('/performance', authoriseStaff('console.performance'), async (req, res) => {
    sendOk(req, res, await performance.report());
  });

  /** GET /api/staff/settings, PUT /api/staff/settings { staffIdleMinutes } (admin): master data of the console. */
  router.get('/settings', authoriseStaff('console.staff'), async (req, res) => {
    sendOk(req, res, await auth.settings());
  });
  router.put('/settings', authoriseStaff('console.staff'), async (req, res) => {
    const settings = staffSettingsSchema.parse(req.body);
    sendOk(req, res, await auth.updateSettings(currentStaff(res), settings, req.ip ?? ''));
  });

  /**
   * Staff administration (admin; docs/console.md, docs/decisions/036-staff-administration.md). Every
   * change is audited (who, what, before → after; ids only). 401 no session; 403 not an admin; 404
   * NOT_FOUND an unknown account; 400 field errors.
   *
   * GET /api/staff/accounts: StaffAdminRow[] (state, lockout, last sign-in, open cases).
   */
  router.get('/accounts', authoriseStaff('console.staff'), async (req, res) => {
    sendOk(req, res, await admin.list());
  });

  /**
   * POST /api/staff/accounts { username, role, nameEn, nameZh, postEn, postZh, telephone, email }:
   * 201 StaffCreated (the initial password and enrolment code, shown once); 409 STAFF_USERNAME_TAKEN.
   */
  router.post('/accounts', authoriseStaff('console.staff'), async (req, res) => {
    const input = staffCreateSchema.parse(req.body);
    res.set('Cache-Control', 'no-store');
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'status.ok', await admin.create(currentStaff(res), input));
  });

  const accountId = (req: Request) => staffIdParam.parse(req.params.id);

  /**
   * POST /api/staff/accounts/:id/disable: the account cannot sign in, its sessions end at once; 409
   * STAFF_SELF (one's own) or STAFF_LAST_ADMIN. POST …/enable: it can sign in again. 200 StaffAdminRow.
   */
  router.post('/accounts/:id/disable', authoriseStaff('console.staff'), async (req, res) => {
    sendOk(req, res, await admin.setActive(currentStaff(res), accountId(req), false));
  });
  router.post('/accounts/:id/enable', authoriseStaff('console.staff'), async (req, res) => {
    sendOk(req, res, await admin.setActive(currentStaff(res), accountId(req), true));
  });

  /** POST /api/staff/accounts/:id/unlock: forgets the account's failed sign-ins (decision 030). 200 StaffAdminRow. */
  router.post('/accounts/:id/unlock', authoriseStaff('console.staff'), async (req, res) => {
    sendOk(req, res, await admin.unlock(currentStaff(res), accountId(req)));
  });

  /**
   * POST /api/staff/accounts/:id/totp-reset: a new TOTP to enrol at the next sign-in, the old one and
   * the recovery codes no longer work, sessions end. 200 StaffTotpReset (the enrolment code, shown once).
   */
  router.post('/accounts/:id/totp-reset', authoriseStaff('console.staff'), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    sendOk(req, res, await admin.resetTotp(currentStaff(res), accountId(req)));
  });

  /**
   * POST /api/staff/accounts/:id/reassign { toStaffId }: the account's open cases go to the colleague
   * (compare-and-set per case); finished cases stay. 200 StaffReassigned; 409 STAFF_REASSIGN_TARGET (not
   * an active case officer or senior officer, or the same account).
   */
  router.post('/accounts/:id/reassign', authoriseStaff('console.staff'), async (req, res) => {
    const { toStaffId } = staffReassignSchema.parse(req.body);
    sendOk(req, res, await admin.reassign(currentStaff(res), accountId(req), toStaffId));
  });

  /**
   * GET /api/staff/holders?registrationNumber= (senior officer, admin): the number's holder, contacts
   * masked, the cases it is actively appointed to, and the holders reset before. 400 not a registration
   * number; 404 HOLDER unknown (the department knows nothing of the number).
   */
  router.get('/holders', authoriseStaff('console.holders'), async (req, res) => {
    const { registrationNumber } = holderLookupSchema.parse(req.query);
    sendOk(req, res, await holders.lookup(registrationNumber));
  });

  /**
   * POST /api/staff/holders/reset body { registrationNumber, holderId, reason } (senior officer, admin):
   * ends the holder (docs/decisions/025-registration-holders.md). 200 HolderResetResult; 400 field errors;
   * 404 unknown number; 409 HOLDER_NONE (no holder now) or HOLDER_CHANGED (not the holder the officer saw).
   */
  router.post('/holders/reset', authoriseStaff('console.holders'), async (req, res) => {
    const body = holderResetSchema.parse(req.body);
    sendOk(
      req,
      res,
      await holders.reset(currentStaff(res).staff, body, req.ip ?? req.socket.remoteAddress ?? ''),
    );
  });

  if (decisions) router.use(decisions);
  return router;
}
