import { Router } from 'express';
import type { Db } from '../../../drizzle/db';
import { noticesReadSchema, type NoticesData } from '../../../machines/rules/staff-inbox';
import type { Clock } from '../../clock';
import { sendOk } from '../../http/envelope';
import { authoriseStaff, currentStaff, type StaffSession } from '../auth';
import { record } from '../shared';
import { markCaseSeen, markNoticesRead, noticesOf } from './inbox';

/** The officer's inbox as the console's routes use it (docs/decisions/039-officer-inbox.md). */
export interface InboxService {
  /** The officer opened the case page: its "New activity" is cleared for them. */
  seen(session: StaffSession, applicationNo: string): Promise<void>;
  notices(session: StaffSession): Promise<NoticesData>;
  read(session: StaffSession, through: Date): Promise<NoticesData>;
}

export function createInboxService({ db, clock }: { db: Db; clock: Clock }): InboxService {
  return {
    seen: (session, applicationNo) => markCaseSeen(db, session.staff.id, applicationNo, clock.now()),
    notices: (session) => noticesOf(db, session.staff.id),
    async read(session, through) {
      await markNoticesRead(db, session.staff.id, through, clock.now());
      return noticesOf(db, session.staff.id);
    },
  };
}

/**
 * The inbox's routes under /api/staff (after the staff session is required). 401 without a live staff
 * session, 403 an admin (no cases of their own) — the table of machines/rules/authorisation.ts.
 */
export function inboxRouter(inbox: InboxService): Router {
  const router = Router();

  /**
   * GET /api/staff/notices: what applicants and AP/RSEs did on the officer's cases (since each was
   * assigned to them), newest first (50 at most), each marked unread or not, and how many are unread.
   * 200 NoticesData.
   */
  router.get('/notices', authoriseStaff('console.inbox'), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    sendOk(req, res, await inbox.notices(currentStaff(res)));
  });

  /**
   * POST /api/staff/notices/read { through } (ISO time of the newest notice the officer was shown): the
   * notices up to it are read (a later one stays unread). 200 NoticesData; 400 a malformed time.
   */
  router.post('/notices/read', authoriseStaff('console.inbox'), async (req, res) => {
    const { through } = noticesReadSchema.parse(req.body);
    const data = await inbox.read(currentStaff(res), new Date(through));
    await record(req, { action: 'notices.read' });
    sendOk(req, res, data);
  });

  return router;
}
