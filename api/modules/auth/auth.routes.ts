import { Router } from 'express';
import { otpSendSchema, otpVerifySchema } from '../../../machines/rules/otp';
import { sendOk } from '../../http/envelope';
import { currentSession, requireSession } from './auth.middleware';
import { requireJson } from '../../http/require-json';
import type { AuthService } from './auth.service';
import type { SessionService } from './sessions';
import { audited, record } from '../shared';

export function authRouter({ auth, sessions }: { auth: AuthService; sessions: SessionService }): Router {
  const router = Router();
  const authenticated = requireSession(sessions);

  /**
   * POST /api/auth/otp/send  body { applicationNo, contact, lang? }
   * 200 data { resendAfterSeconds, expiresInSeconds }: the same whether or not the application exists
   *     and the contact matches (the code goes only to the contact on file, and only when it matches);
   * 400 BAD_REQUEST field errors or malformed JSON; 415 body not JSON;
   * 429 OTP_RESEND_TOO_SOON | OTP_RATE_LIMITED | OTP_LOCKED | RATE_LIMITED (`otpSend`, per address)
   *     with Retry-After and data { retryAfterSeconds }.
   */
  router.post('/otp/send', requireJson, async (req, res) => {
    const request = otpSendSchema.parse(req.body);
    const about = { caseNo: request.applicationNo };
    const sent = await audited(
      req,
      'otp.send',
      () => auth.sendCode(request),
      () => about,
      about,
    );
    sendOk(req, res, sent, 'auth.otp.sent');
  });

  /**
   * POST /api/auth/otp/verify  body { applicationNo, contact, code, lang? }
   * 200 data { token, applicationNo, role, userId, idleTimeoutMinutes, absoluteExpiresAt };
   * 400 BAD_REQUEST field errors; 410 OTP_EXPIRED no live code (expired, used, burnt, replaced, never sent);
   * 422 OTP_WRONG data { attemptsLeft } | OTP_BURNT (the last allowed wrong try);
   * 429 OTP_LOCKED with Retry-After and data { retryAfterSeconds }; 415 body not JSON.
   */
  router.post('/otp/verify', requireJson, async (req, res) => {
    const request = otpVerifySchema.parse(req.body);
    const login = await audited(
      req,
      'auth.login',
      () => auth.login(request),
      (made) => sessions.loginRecord(made),
      { caseNo: request.applicationNo },
    );
    sendOk(req, res, login, 'auth.loggedIn');
  });

  /** POST /api/auth/logout  (Bearer) 200 data null, the token no longer works; 401 UNAUTHORIZED. */
  router.post('/logout', authenticated, async (req, res) => {
    await sessions.revoke(currentSession(res));
    await record(req, { action: 'auth.logout' });
    sendOk(req, res, null, 'auth.loggedOut');
  });

  /** POST /api/auth/keepalive  (Bearer) 200 data { idleExpiresAt } ("stay signed in"); 401 UNAUTHORIZED. */
  router.post('/keepalive', authenticated, (req, res) => {
    sendOk(
      req,
      res,
      { idleExpiresAt: sessions.describe(currentSession(res)).idleExpiresAt },
      'auth.keptAlive',
    );
  });

  /**
   * GET /api/auth/session  (Bearer)
   * 200 data { applicationNo, role, userId, idleExpiresAt, absoluteExpiresAt }; 401 UNAUTHORIZED.
   */
  router.get('/session', authenticated, (req, res) => {
    sendOk(req, res, sessions.describe(currentSession(res)));
  });

  return router;
}
