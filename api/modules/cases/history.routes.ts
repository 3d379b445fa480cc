import { Router } from 'express';
import { historyQuerySchema } from '../../../machines/rules/history';
import { sendOk } from '../../http/envelope';
import { currentSession, requireSession } from '../auth/auth.middleware';
import type { HistoryService } from './history';
import type { SessionService } from '../auth/sessions';

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
