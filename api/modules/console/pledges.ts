import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applicationHistory } from '../../../drizzle/schema';
import { informationRequests } from '../../../drizzle/schema-staff';
import type { CaseStatus } from '../../../machines/rules/case-lifecycle';
import {
  PLEDGES,
  pledgeOfStatus,
  pledgeStanding,
  waitingSpans,
  type PledgeStanding,
  type WaitingSpan,
} from '../../../machines/rules/pledges';
import { addDays, hongKongDate } from '../../../machines/rules/working-days';
import type { CalendarService } from '../shared';

/**
 * Where each open case stands against its current stage's performance pledge (docs/decisions/044-pledges.md):
 * the stage's due date in working days, with the clock stopped while the department waits for the
 * applicant, read from the cases' status rows (application_history) and requests for further information.
 */

/** What a case's pledges are counted from. */
export interface PledgeFacts {
  /** Hong Kong dates: status rows in order, each with the status it led to. */
  statusRows: { date: string; status: string; documentType: string }[];
  waiting: WaitingSpan[];
}

/** The status rows and waiting spans of the cases `ids`, by case id. */
export async function pledgeFactsOf(db: Db, ids: readonly number[]): Promise<Map<number, PledgeFacts>> {
  const facts = new Map<number, PledgeFacts>(ids.map((id) => [id, { statusRows: [], waiting: [] }]));
  if (ids.length === 0) return facts;
  const [history, requests] = await Promise.all([
    db
      .select({
        applicationId: applicationHistory.applicationId,
        date: applicationHistory.date,
        status: applicationHistory.status,
        documentType: applicationHistory.documentType,
      })
      .from(applicationHistory)
      .where(inArray(applicationHistory.applicationId, [...ids]))
      .orderBy(asc(applicationHistory.date), asc(applicationHistory.id)),
    db
      .select({
        applicationId: informationRequests.applicationId,
        createdAt: informationRequests.createdAt,
        answeredAt: informationRequests.answeredAt,
        withdrawnAt: informationRequests.withdrawnAt,
      })
      .from(informationRequests)
      .where(inArray(informationRequests.applicationId, [...ids]))
      .orderBy(asc(informationRequests.createdAt)),
  ]);
  const byCase = new Map<number, { statusRows: PledgeFacts['statusRows']; requests: WaitingSpan[] }>();
  const of = (id: number) => {
    let f = byCase.get(id);
    if (!f) byCase.set(id, (f = { statusRows: [], requests: [] }));
    return f;
  };
  for (const h of history)
    of(h.applicationId).statusRows.push({
      date: hongKongDate(h.date),
      status: h.status,
      documentType: h.documentType,
    });
  for (const r of requests) {
    const ended = r.answeredAt ?? r.withdrawnAt;
    of(r.applicationId).requests.push({
      from: hongKongDate(r.createdAt),
      ...(ended ? { to: hongKongDate(ended) } : {}),
    });
  }
  for (const [id, f] of byCase)
    facts.set(id, { statusRows: f.statusRows, waiting: waitingSpans(f.statusRows, f.requests) });
  return facts;
}

/** When the current stage's clock started: the submission, or the latest request for inspection. */
function startOf(pledge: keyof typeof PLEDGES, submitted: string, facts: PledgeFacts): string {
  if (PLEDGES[pledge].from === 'submission') return submitted;
  const request = facts.statusRows.findLast((r) => r.documentType === 'INSPECTION_REQUEST');
  return request?.date ?? submitted;
}

/**
 * The standing of each case against its current stage's pledge on `today` (null: no pledge now, the
 * applicant is to act or the case is decided).
 */
export async function currentPledges(
  db: Db,
  calendar: CalendarService,
  today: string,
  cases: readonly { id: number; status: CaseStatus; submittedAt: Date }[],
): Promise<Map<number, PledgeStanding | null>> {
  const facts = await pledgeFactsOf(
    db,
    cases.filter((c) => pledgeOfStatus(c.status) !== null).map((c) => c.id),
  );
  const submitted = cases.map((c) => hongKongDate(c.submittedAt)).sort();
  const from = submitted[0] ?? today;
  const holidays = new Set(calendar.holidaysBetween(from, addDays(today > from ? today : from, 3 * 366)));
  return new Map(
    cases.map((c) => {
      const pledge = pledgeOfStatus(c.status);
      const f = facts.get(c.id);
      if (!pledge || !f) return [c.id, null];
      const start = startOf(pledge, hongKongDate(c.submittedAt), f);
      return [c.id, pledgeStanding({ pledge, start, today, holidays, spans: f.waiting })];
    }),
  );
}
