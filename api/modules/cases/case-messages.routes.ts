import { Router } from 'express';
import type { Clock } from '../../clock';
import { caseMessageSchema } from '../../../machines/rules/staff';
import type { Db } from '../../../drizzle/db';
import { sendOk } from '../../http/envelope';
import { requestLanguage } from '../../http/i18n';
import { currentSession, requireSession, authorise, ownCaseOnly, type SessionService } from '../auth';
import { requireJson } from '../../http/require-json';
import { sendApplicantMessage } from './case-messages';

/**
 * POST /api/cases/current/messages (Bearer) body { body }: a message from the applicant to the case
 * officer, kept on the case (issue 17). 200 the message; 400 empty or too long; 401; 403 role or another
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
