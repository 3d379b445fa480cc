import { and, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applications, caseAssignments } from '../../../drizzle/schema';
import { decisionProposals } from '../../../drizzle/schema-proposals';
import type { StaffAccountRow } from '../../../drizzle/schema-staff';
import { isCaseStatus, OPEN_STATUSES, type CaseStatus } from '../../../machines/rules/case-lifecycle';
import {
  CONTACT_DUE_WORKING_DAYS,
  type QueuePage,
  type QueueRow,
  type StaffSummary,
} from '../../../machines/rules/staff';
import { QUEUE_PAGE_SIZE, type QueueQuery } from '../../../machines/rules/staff-queue';
import { addWorkingDays, hongKongDate } from '../../../machines/rules/working-days';
import type { Clock } from '../../clock';
import { containsPattern, foldForSearch, type CalendarService } from '../shared';
import { indexPendingCases } from '../cases';
import type { StaffSession } from '../auth';
import * as repo from './console.repo';
import { inboxFilter, newActivity } from './inbox';
import { currentPledges } from './pledges';

/**
 * The console's work queue (docs/console.md, "The work queue"): the cases with their officer and the due
 * date of the contact details (2 working days after the case came in, Hong Kong holidays excluded), a page
 * at a time, every filter applied by the database.
 */

/** Cases whose pending proposal this senior officer may approve (none for another role). */
function awaitingApprovalBy(staff: StaffSession['staff']): SQL {
  if (staff.role !== 'seniorOfficer') return sql`false`;
  return sql`exists (select 1 from ${decisionProposals} where ${decisionProposals.applicationId} = ${applications.id}
    and ${decisionProposals.state} = 'pending' and ${decisionProposals.proposedBy} <> ${staff.id})`;
}

/** An officer as the console names them. */
export const staffSummary = (s: StaffAccountRow): StaffSummary => ({
  id: s.id,
  nameEn: s.nameEn,
  nameZh: s.nameZh,
  role: s.role as StaffSummary['role'],
});

/** Cases read at a time for the CSV export. */
const EXPORT_BATCH = 500;

export function createQueueReader({
  db,
  clock,
  calendar,
}: {
  db: Db;
  clock: Clock;
  calendar: CalendarService;
}) {
  function dueOf(submittedAt: Date): string {
    const from = hongKongDate(submittedAt);
    const holidays = new Set(calendar.holidaysBetween(from, `${Number(from.slice(0, 4)) + 1}-12-31`));
    return addWorkingDays(from, CONTACT_DUE_WORKING_DAYS, holidays);
  }

  /** The queue's rows found by `where` (a page of them), with their officer and due date. */
  async function rowsOf(
    where: SQL | undefined,
    page?: { limit: number; offset: number },
  ): Promise<{ rows: (QueueRow & { id: number; staffId: number | null })[]; total: number }> {
    const [{ rows, total }, staff] = await Promise.all([repo.queueRows(db, where, page), repo.staffList(db)]);
    const today = hongKongDate(clock.now());
    const late = await repo.overdueRequestCases(db, today);
    const byId = new Map(staff.map((s) => [s.id, s]));
    const status = (r: (typeof rows)[number]): CaseStatus =>
      isCaseStatus(r.status) ? r.status : 'SUBMITTED';
    const pledges = await currentPledges(
      db,
      calendar,
      today,
      rows.map((r) => ({ id: r.id, status: status(r), submittedAt: r.submittedAt ?? r.createdAt })),
    );
    return {
      total,
      rows: rows.map((r) => {
        const submittedAt = r.submittedAt ?? r.createdAt;
        const due = dueOf(submittedAt);
        const officer = r.staffId ? byId.get(r.staffId) : undefined;
        return {
          id: r.id,
          staffId: r.staffId,
          applicationNo: r.applicationNo,
          formCode: r.formCode,
          status: status(r),
          applicantName: r.nameEn ?? r.nameZh,
          submittedAt: submittedAt.toISOString(),
          contactDue: due,
          overdue: !r.contactSentAt && status(r) === 'SUBMITTED' && today > due,
          officer: officer ? staffSummary(officer) : null,
          requestOverdue: late.has(r.id),
          premisesAddress: r.premisesAddressEn,
          finished: !(OPEN_STATUSES as readonly string[]).includes(status(r)),
          pledge: pledges.get(r.id) ?? null,
        };
      }),
    };
  }

  /**
   * What the filters find, as the database's condition. A search first indexes the cases marked to be
   * (made or changed since: docs/decisions/034-console-search.md), so it reads current text.
   */
  async function filterOf(session: StaffSession, query: QueueQuery): Promise<SQL | undefined> {
    const officer =
      query.officer === 'none'
        ? isNull(caseAssignments.staffId)
        : query.officer
          ? eq(caseAssignments.staffId, query.officer === 'me' ? session.staff.id : Number(query.officer))
          : undefined;
    const folded = query.q ? foldForSearch(query.q) : '';
    if (folded) await indexPendingCases(db);
    return and(
      query.status ? eq(applications.status, query.status) : undefined,
      query.form ? eq(applications.formCode, query.form) : undefined,
      query.applicationNo ? eq(applications.applicationNo, query.applicationNo) : undefined,
      folded ? ilike(applications.searchText, containsPattern(folded)) : undefined,
      officer,
      query.tab ? inboxFilter(session.staff.id, query.tab) : undefined,
      query.awaiting === 'me' ? awaitingApprovalBy(session.staff) : undefined,
    );
  }

  /** The officers the queue can be filtered by: active case officers and senior officers. */
  async function officers(): Promise<StaffSummary[]> {
    return (await repo.staffList(db)).filter((s) => s.role !== 'admin').map(staffSummary);
  }

  /** GET /api/staff/cases: a page of the cases the filters find. */
  async function queue(session: StaffSession, query: QueueQuery): Promise<QueuePage> {
    const page = query.page ?? 1;
    const [{ rows, total }, staff] = await Promise.all([
      rowsOf(await filterOf(session, query), {
        limit: QUEUE_PAGE_SIZE,
        offset: (page - 1) * QUEUE_PAGE_SIZE,
      }),
      officers(),
    ]);
    // "New activity" for the signed-in officer (docs/decisions/039-officer-inbox.md).
    const activity = await newActivity(
      db,
      session.staff.id,
      rows.map((r) => r.id),
    );
    return {
      cases: rows.map(({ id, staffId: _s, ...row }) => ({ ...row, activity: activity.get(id) ?? [] })),
      officers: staff,
      total,
      page,
      pageSize: QUEUE_PAGE_SIZE,
    };
  }

  /** Every case the filters find (not a page), in the queue's order, read a page at a time. */
  async function* allRows(session: StaffSession, query: QueueQuery): AsyncGenerator<QueueRow> {
    const where = await filterOf(session, query);
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const { rows } = await rowsOf(where, { limit: EXPORT_BATCH, offset });
      for (const { id: _id, staffId: _s, ...row } of rows) yield row;
      if (rows.length < EXPORT_BATCH) return;
    }
  }

  return { rowsOf, queue, allRows };
}
