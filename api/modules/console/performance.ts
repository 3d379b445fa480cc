import { and, count, eq, gte, inArray } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applicationHistory, applications, auditEvents } from '../../../drizzle/schema';
import { OPEN_STATUSES } from '../../../machines/rules/case-lifecycle';
import {
  PLEDGE_KEYS,
  lastMonths,
  median,
  pledgeStanding,
  workingDaysElapsed,
  type PerformanceData,
  type PledgeKey,
} from '../../../machines/rules/pledges';
import { addDays, hongKongDate } from '../../../machines/rules/working-days';
import type { Clock } from '../../clock';
import type { CalendarService } from '../shared';
import { pledgeFactsOf, type PledgeFacts } from './pledges';

/**
 * The performance page's figures (docs/decisions/044-pledges.md): open cases by stage now, the pledges met
 * and missed by the month the stage was done (the last 6 months), and the median working days from
 * submission to certificate. Read from the status rows, the information requests and, for the start of an
 * examination (which writes no status row), the audit trail.
 */

/** The stages of a case done, each with its pledge, when its clock started and the day it was done. */
function doneStages(facts: PledgeFacts, examined: string | undefined) {
  const rows = facts.statusRows;
  const submitted = rows[0]?.date;
  if (!submitted) return [];
  const first = (...types: string[]) => rows.find((r) => types.includes(r.documentType))?.date;
  const done: { pledge: PledgeKey; start: string; done: string }[] = [];
  const add = (pledge: PledgeKey, day: string | undefined) => {
    if (day) done.push({ pledge, start: submitted, done: day });
  };
  add('contact', first('ACKNOWLEDGEMENT'));
  add('examination', examined);
  add('lor', first('LETTER_OF_REQUIREMENTS', 'REJECTION_NOTICE'));
  add('certificate', first('CERTIFICATE'));
  // Each request for inspection, done by the report of the next inspection.
  rows.forEach((r, i) => {
    if (r.documentType !== 'INSPECTION_REQUEST') return;
    const report = rows.slice(i + 1).find((x) => x.documentType === 'INSPECTION_REPORT');
    if (report) done.push({ pledge: 'inspection', start: r.date, done: report.date });
  });
  return done;
}

export function createPerformanceReader({
  db,
  clock,
  calendar,
}: {
  db: Db;
  clock: Clock;
  calendar: CalendarService;
}) {
  return {
    /** GET /api/staff/performance */
    async report(): Promise<PerformanceData> {
      const today = hongKongDate(clock.now());
      const months = lastMonths(today);
      const since = new Date(`${months[0]}-01T00:00:00+08:00`);
      const [byStatus, moved, examinations] = await Promise.all([
        db
          .select({ status: applications.status, n: count() })
          .from(applications)
          .where(inArray(applications.status, [...OPEN_STATUSES]))
          .groupBy(applications.status),
        db
          .selectDistinct({ id: applicationHistory.applicationId })
          .from(applicationHistory)
          .where(gte(applicationHistory.date, since)),
        db
          .select({ id: auditEvents.applicationId, at: auditEvents.at })
          .from(auditEvents)
          .where(and(eq(auditEvents.event, 'case.examine'), gte(auditEvents.at, since))),
      ]);
      const examined = new Map<number, string>();
      for (const e of examinations)
        if (e.id !== null && !examined.has(e.id)) examined.set(e.id, hongKongDate(e.at));
      const ids = [...new Set([...moved.map((m) => m.id), ...examined.keys()])];
      const facts = await pledgeFactsOf(db, ids);
      const earliest = [...facts.values()].map((f) => f.statusRows[0]?.date ?? today).sort()[0] ?? today;
      const holidays = new Set(calendar.holidaysBetween(earliest, addDays(today, 366)));

      const tally = new Map(
        months.map((m) => [m, Object.fromEntries(PLEDGE_KEYS.map((k) => [k, { met: 0, missed: 0 }]))]),
      ) as Map<string, Record<PledgeKey, { met: number; missed: number }>>;
      const toCertificate: number[] = [];
      for (const [id, f] of facts) {
        for (const stage of doneStages(f, examined.get(id))) {
          const bucket = tally.get(stage.done.slice(0, 7))?.[stage.pledge];
          if (!bucket) continue;
          const standing = pledgeStanding({ ...stage, today, holidays, spans: f.waiting });
          bucket[standing.state === 'met' ? 'met' : 'missed'] += 1;
          if (stage.pledge === 'certificate')
            toCertificate.push(workingDaysElapsed(stage.start, stage.done, holidays));
        }
      }
      const counts = new Map(byStatus.map((r) => [r.status, Number(r.n)]));
      return {
        today,
        stages: OPEN_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
        months: months.map((month) => ({ month, pledges: tally.get(month)! })),
        certificates: { count: toCertificate.length, medianWorkingDays: median(toCertificate) },
      };
    },
  };
}

export type PerformanceReader = ReturnType<typeof createPerformanceReader>;
