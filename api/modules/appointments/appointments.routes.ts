import { Router } from 'express';
import { z } from 'zod';
import {
  appointeeOtpSendSchema,
  appointeeOtpVerifySchema,
  holderContactSendSchema,
  holderContactVerifySchema,
  invitationAcceptSchema,
  invitationIamSmartSchema,
  invitationOtpSendSchema,
  invitationOtpVerifySchema,
  invitationSchema,
  invitationTokenSchema,
  revokeSchema,
  selectCaseSchema,
  SIGNING_REQUEST_PATTERN,
} from '../../../machines/rules/appointment';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../../http/envelope';
import { requestLanguage } from '../../http/i18n';
import { currentSession, requireSession, authorise, type SessionService } from '../auth';
import { SIGNATURE_MAX_BYTES } from '../signing';
import { requireJson } from '../../http/require-json';
import type { AppointeeAuth } from './appointee-auth';
import type { HolderContact } from './holder-contact';
import type { AppointmentSigning } from './appointment-signing';
import { type AppointmentService, InvitationError } from './appointments.service';
import { readSmallFile, requireMultipart } from '../../http/multipart';
import { audited } from '../shared';

const idParam = z.coerce.number().int().positive().max(2_147_483_647);
const requestIdSchema = z.string().regex(SIGNING_REQUEST_PATTERN);
/** What the audit log says of the one-time codes of an invitation, an appointee's login, a holder's contact. */
const INVITATION = { detail: { purpose: 'appointment' } } as const;
const APPOINTEE = { detail: { purpose: 'appointeeLogin' } } as const;
const HOLDER = { detail: { purpose: 'holderContact' } } as const;

/**
 * A body with an invitation token: a token that is malformed answers exactly like an unknown or tampered
 * one (404 INVITATION_UNKNOWN), so the answer tells nothing; other fields are validated as usual (400).
 */
function withToken<T extends z.ZodType<{ token: string }>>(schema: T, body: unknown): z.infer<T> {
  const raw: unknown =
    typeof body === 'object' && body !== null ? (body as { token?: unknown }).token : undefined;
  if (!invitationTokenSchema.safeParse(raw).success) throw new InvitationError('unknown');
  return schema.parse(body);
}

/**
 * /api/appointments/invitation: the appointee's side, by the token of the invitation link (no session).
 * Every endpoint: 404 INVITATION_UNKNOWN (malformed, unknown or tampered token, one answer), 410
 * INVITATION_EXPIRED | INVITATION_CANCELLED | INVITATION_USED. docs/api.md.
 */
export function invitationRouter({
  appointments,
  signing,
}: {
  appointments: AppointmentService;
  signing: AppointmentSigning;
}): Router {
  const router = Router();
  /** POST /  { token } → 200 InvitationView (contacts masked). */
  router.post('/', requireJson, async (req, res) => {
    const { token } = withToken(invitationSchema, req.body);
    sendOk(req, res, await appointments.invitation(token, requestLanguage(req)));
  });
  /** POST /otp/send  { token, channel: 'email' | 'mobile' } → 200 { resendAfterSeconds, expiresInSeconds }; 429. */
  router.post('/otp/send', requireJson, async (req, res) => {
    const { token, channel } = withToken(invitationOtpSendSchema, req.body);
    const sent = await audited(
      req,
      'otp.send',
      () => appointments.sendCode(token, channel),
      () => INVITATION,
      INVITATION,
    );
    sendOk(req, res, sent, 'auth.otp.sent');
  });
  /** POST /otp/verify  { token, channel, code } → 200 { confirmed }; 410 OTP_EXPIRED; 422 OTP_WRONG | OTP_BURNT; 429. */
  router.post('/otp/verify', requireJson, async (req, res) => {
    const { token, channel, code } = withToken(invitationOtpVerifySchema, req.body);
    const verified = await audited(
      req,
      'otp.verify',
      () => appointments.verifyCode(token, channel, code),
      () => INVITATION,
      INVITATION,
    );
    sendOk(req, res, verified, 'appointment.confirmed');
  });
  /** POST /signing/iamsmart  { token, hkic } → 201 { requestId, identificationCode, qrText, expiresAt, digest }; 409 CONTACT_NOT_CONFIRMED; 503. */
  router.post('/signing/iamsmart', requireJson, async (req, res) => {
    const { token, hkic } = withToken(invitationIamSmartSchema, req.body);
    const started = await audited(
      req,
      'signing.start',
      () => signing.startIamSmart(token, hkic, requestLanguage(req)),
      () => ({ detail: { purpose: 'appointment', method: 'iamsmart' } }),
    );
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'signing.started', started);
  });
  /** POST /signing/iamsmart/status  { token, requestId } → 200 { status, code?, reference? }; 404 signing unknown. */
  router.post('/signing/iamsmart/status', requireJson, async (req, res) => {
    const { token, requestId } = withToken(
      z.object({ token: z.string(), requestId: requestIdSchema }),
      req.body,
    );
    sendOk(req, res, await signing.iamSmartStatus(token, requestId));
  });
  /** POST /signing/ecert/prepare  { token } → 200 { requestId, digest, content } (what to sign). */
  router.post('/signing/ecert/prepare', requireJson, async (req, res) => {
    const { token } = withToken(invitationSchema, req.body);
    const prepared = await audited(
      req,
      'signing.start',
      () => signing.prepareEcert(token, requestLanguage(req)),
      () => ({ detail: { purpose: 'appointment', method: 'ecert' } }),
    );
    sendOk(req, res, prepared);
  });
  /**
   * POST /signing/ecert  multipart `signature` (.p7s), headers X-Invitation-Token, X-Signing-Request →
   * 200 { reference }; 422 SIGNER_MISMATCH (names the appointee) | ECERT_REJECTED { reason }; 413; 415.
   */
  router.post('/signing/ecert', async (req, res) => {
    const { token } = withToken(invitationSchema, { token: req.get('x-invitation-token') });
    const requestId = requestIdSchema.parse(req.get('x-signing-request'));
    requireMultipart(req);
    const signature = await readSmallFile(req, 'signature', SIGNATURE_MAX_BYTES);
    const signed = await audited(
      req,
      'signing.complete',
      () => signing.verifyEcert(token, requestId, signature),
      () => ({ detail: { purpose: 'appointment', method: 'ecert' } }),
    );
    sendOk(req, res, signed, 'signing.ecert.signed');
  });
  /**
   * POST /accept  { token, signingId } → 200 AppointmentView (ACTIVE); 409 CONTACT_NOT_CONFIRMED |
   * SIGNATURE_REQUIRED; 410 INVITATION_USED for every acceptance after the first (row lock).
   */
  router.post('/accept', requireJson, async (req, res) => {
    const { token, signingId } = withToken(invitationAcceptSchema, req.body);
    const signature = await signing.signed(token, signingId);
    sendOk(req, res, await appointments.accept(token, signature), 'appointment.accepted');
  });
  return router;
}

/**
 * /api/cases/current/appointments (Bearer, the applicant only: `appointment.manage`): the appointments of
 * the session's case; cancel an invitation; revoke an appointment with a reason. 401; 403 FORBIDDEN for
 * an AP/RSE (they cannot change the appointment); 404 not an appointment of this case; 409 wrong status.
 */
export function caseAppointmentsRouter({
  appointments,
  sessions,
}: {
  appointments: AppointmentService;
  sessions: SessionService;
}): Router {
  const router = Router();
  router.use(requireSession(sessions), authorise('appointment.manage'));
  router.get('/', async (req, res) => {
    sendOk(req, res, await appointments.list(currentSession(res)));
  });
  router.post('/:id/cancel', async (req, res) => {
    const id = idParam.parse(req.params.id);
    sendOk(
      req,
      res,
      await appointments.end(currentSession(res), id, 'cancel', null),
      'appointment.cancelled',
    );
  });
  router.post('/:id/revoke', requireJson, async (req, res) => {
    const id = idParam.parse(req.params.id);
    const { reason } = revokeSchema.parse(req.body);
    sendOk(
      req,
      res,
      await appointments.end(currentSession(res), id, 'revoke', reason),
      'appointment.revoked',
    );
  });
  return router;
}

/**
 * The AP/RSE login and their cases:
 * POST /api/auth/appointee/otp/send  { registrationNumber, contact } → 200 (the same whether or not the
 *      number has an active appointment with that contact); 400; 429.
 * POST /api/auth/appointee/otp/verify  { registrationNumber, contact, code } → 200 LoginData + { cases };
 *      403 APPOINTMENT_ENDED; 410 OTP_EXPIRED; 422 OTP_WRONG | OTP_BURNT; 429.
 * GET  /api/appointee/cases  (Bearer, ap | rse) → 200 AppointeeCase[].
 * POST /api/appointee/cases/select  { applicationNo } → 200 SessionData on that case; 403 not theirs.
 * POST /api/appointee/contact/send  (Bearer, ap | rse) { contact } → 200: a code to the contact on file of
 *      that kind and one to the new contact; 400; 409 CONTACT_UNCHANGED; 429.
 * POST /api/appointee/contact/verify  { contact, oldCode, newCode } → 200 { email, mobile } (the holder's
 *      contacts now); 409 CONTACT_UNCHANGED; 410 OTP_EXPIRED; 422 OTP_WRONG | OTP_BURNT; 429.
 *      docs/decisions/025-registration-holders.md.
 */
export function appointeeRouters({
  auth,
  contact,
  sessions,
}: {
  auth: AppointeeAuth;
  contact: HolderContact;
  sessions: SessionService;
}) {
  const login = Router();
  login.post('/otp/send', requireJson, async (req, res) => {
    const request = appointeeOtpSendSchema.parse(req.body);
    const sent = await audited(
      req,
      'otp.send',
      () => auth.sendCode(request),
      () => APPOINTEE,
      APPOINTEE,
    );
    sendOk(req, res, sent, 'auth.otp.sent');
  });
  login.post('/otp/verify', requireJson, async (req, res) => {
    const request = appointeeOtpVerifySchema.parse(req.body);
    const login = await audited(
      req,
      'auth.login',
      () => auth.login(sessions, request),
      async (made) => ({ ...(await sessions.loginRecord(made)), ...APPOINTEE }),
      APPOINTEE,
    );
    sendOk(req, res, login, 'auth.loggedIn');
  });
  const cases = Router();
  cases.use(requireSession(sessions), authorise('appointee.cases'));
  cases.get('/', async (req, res) => {
    sendOk(req, res, await auth.cases(currentSession(res)));
  });
  cases.post('/select', requireJson, async (req, res) => {
    const { applicationNo } = selectCaseSchema.parse(req.body);
    sendOk(req, res, await auth.select(sessions, currentSession(res), applicationNo));
  });
  const contacts = Router();
  contacts.use(requireSession(sessions), authorise('appointee.cases'));
  contacts.post('/send', requireJson, async (req, res) => {
    const request = holderContactSendSchema.parse(req.body);
    const sent = await audited(
      req,
      'otp.send',
      () => contact.send(currentSession(res), request.contact),
      () => HOLDER,
      HOLDER,
    );
    sendOk(req, res, sent, 'auth.otp.sent');
  });
  contacts.post('/verify', requireJson, async (req, res) => {
    const { contact: to, oldCode, newCode } = holderContactVerifySchema.parse(req.body);
    const changed = await audited(
      req,
      'otp.verify',
      () => contact.verify(currentSession(res), to, { oldCode, newCode }),
      () => HOLDER,
      HOLDER,
    );
    sendOk(req, res, changed, 'appointment.contactChanged');
  });
  return { login, cases, contacts };
}
