import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applicationHistory } from '../../../drizzle/schema';
import type { HistoryData } from '../../../machines/rules/history';
import { ForbiddenError } from '../../http/errors';
import type { AuthSession } from '../auth';

export interface HistoryService {
  /**
   * The history of the session's application, newest first. `applicationNo`, when given (normalised),
   * must be the session's own: ForbiddenError otherwise.
   */
  forSession(session: AuthSession, applicationNo?: string): Promise<HistoryData>;
}

export function createHistoryService(db: Db): HistoryService {
  return {
    async forSession(session, applicationNo) {
      if (applicationNo !== undefined && applicationNo !== session.applicationNo) throw new ForbiddenError();
      const rows = await db
        .select({
          submissionDate: applicationHistory.submissionDate,
          documentType: applicationHistory.documentType,
          status: applicationHistory.status,
          submittedBy: applicationHistory.submittedBy,
          date: applicationHistory.date,
        })
        .from(applicationHistory)
        .where(eq(applicationHistory.applicationId, session.applicationId))
        .orderBy(desc(applicationHistory.submissionDate), desc(applicationHistory.id));
      return {
        applicationNo: session.applicationNo,
        rows: rows.map((row) => ({
          ...row,
          submissionDate: row.submissionDate.toISOString(),
          date: row.date.toISOString(),
        })),
      };
    },
  };
}
