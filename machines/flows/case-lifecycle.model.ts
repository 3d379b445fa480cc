import type { CaseActor, CaseEventType } from '../rules/case-lifecycle';
import { CASE_ACTORS, CASE_EVENT_TYPES } from '../rules/case-lifecycle';
import type { CaseEventFacts, LifecycleFacts } from '../rules/case-rules';
import type { CaseEvent, CaseLifecycleSnapshot } from './case-lifecycle.machine';

/**
 * A model case for walking the lifecycle with its facts (the path tests of machines/flows/index.ts and the
 * invariant test tests/paths/case-rules.test.ts): a fixed day in Hong Kong, one AP appointed, and the
 * events each sender may send with the own facts that tell the case's rules apart (a working day, a
 * Sunday, a holiday, a past date; a reply-by date far enough ahead or too soon; a request open or not; the
 * fitting self-certification form or another). docs/flows/case-rules.md.
 */

/** Tuesday 1 December 2026 in Hong Kong. */
export const MODEL_TODAY = '2026-12-01';

/** The AP appointed to the model case, and one who is not. */
export const MODEL_AP = 'AP(E) 2345';
export const OTHER_AP = 'AP(E) 9999';
/** An RSE, not appointed to the model case. */
export const MODEL_RSE = 'RSE 567';

export const MODEL_FACTS: LifecycleFacts = {
  today: MODEL_TODAY,
  holidays: ['2026-12-25', '2026-12-26'],
  formCode: 'A2',
  lorIssued: false,
  preferredDates: [],
  inspection: null,
  openRequests: [],
  appointees: [`ap:${MODEL_AP}`],
  replyWorkingDays: 5,
  proposal: null,
};

/** Dates for an inspection: today, a later working day (inside the preferred dates), a Sunday, a holiday, the past. */
export const INSPECTION_DATES = {
  today: MODEL_TODAY,
  workingDay: '2026-12-03',
  sunday: '2026-12-06',
  holiday: '2026-12-25',
  past: '2026-11-30',
} as const;

/** Reply-by dates: 5 working days ahead, too soon, a Saturday. */
export const REPLY_DATES = { ok: '2026-12-08', tooSoon: '2026-12-03', saturday: '2026-12-12' } as const;

/** The own facts to try for an event: one per branch of the case's rules it is checked by. */
function variantsOf(type: CaseEventType): CaseEventFacts[] {
  switch (type) {
    case 'inspection.schedule':
    case 'inspection.reschedule':
      return Object.values(INSPECTION_DATES).map((date) => ({ date }));
    case 'inspection.record':
      return [{ result: 'PASS' }, { result: 'FAIL' }];
    case 'inspection.request':
      return [{ preferredDates: [INSPECTION_DATES.workingDay, '2026-12-04'] }, { preferredDates: [] }];
    case 'information.request':
      return Object.values(REPLY_DATES).map((replyBy) => ({ replyBy }));
    case 'information.extend':
      return [
        { requestId: 1, replyBy: REPLY_DATES.ok },
        { requestId: 2, replyBy: REPLY_DATES.tooSoon },
      ];
    case 'information.withdraw':
      return [{ requestId: 1 }, { requestId: 2 }];
    case 'document.submit':
      return [{}, { requestId: 1 }];
    case 'selfCertification.submit':
      return [{ formKey: 'scs1' }, { formKey: 'scs2' }];
    default:
      return [{}];
  }
}

/** The model's officers: a case officer and two senior officers (the four-eyes rule needs two people). */
export const MODEL_STAFF = { officer: 'staff:1', senior: 'staff:2', otherSenior: 'staff:3' } as const;

/** Who the sender is: the appointed AP, another AP, the RSE who is not appointed, each officer, anyone else. */
function refsOf(actor: CaseActor): (string | undefined)[] {
  if (actor === 'ap') return [MODEL_AP, OTHER_AP];
  if (actor === 'rse') return [MODEL_RSE];
  if (actor === 'caseOfficer') return [MODEL_STAFF.officer];
  if (actor === 'seniorOfficer') return [MODEL_STAFF.senior, MODEL_STAFF.otherSenior];
  return [undefined];
}

/** Every event of the lifecycle by every sender with every variant of its own facts. */
export const MODEL_EVENTS: CaseEvent[] = CASE_EVENT_TYPES.flatMap((type) =>
  CASE_ACTORS.flatMap((actor) =>
    refsOf(actor).flatMap((actorRef) =>
      variantsOf(type).map((own) => ({ type, actor, own, ...(actorRef === undefined ? {} : { actorRef }) })),
    ),
  ),
);

/** The state and the facts the case's rules read: two snapshots that differ here behave differently. */
export function serializeModel(s: CaseLifecycleSnapshot): string {
  const f = s.context;
  return JSON.stringify([
    s.value,
    f.lorIssued,
    f.inspection,
    f.preferredDates.length > 0,
    f.openRequests.length > 2 ? 'many' : f.openRequests,
    f.proposal,
  ]);
}

/**
 * The events the flow registry walks (path tests and coverage): each sender once, with own facts that
 * the rules allow (and a future inspection date besides today's, and both results), so every transition
 * is taken without the refused variants the invariant test tries. Decisions are proposed by the case
 * officer and approved by one senior officer.
 */
export const PATH_EVENTS: CaseEvent[] = MODEL_EVENTS.filter((e) => {
  if (e.actor === 'rse' || e.actorRef === OTHER_AP) return false;
  // Two people: the case officer proposes, one senior officer decides (the invariant test tries the rest).
  if (e.actorRef === MODEL_STAFF.otherSenior) return false;
  if (e.actor === 'seniorOfficer' && e.type.endsWith('.propose')) return false;
  const own = e.own ?? {};
  if (own.date !== undefined)
    return own.date === INSPECTION_DATES.today || own.date === INSPECTION_DATES.workingDay;
  if (own.replyBy !== undefined) return own.replyBy === REPLY_DATES.ok;
  if (own.requestId !== undefined) return own.requestId === 1;
  if (own.formKey !== undefined) return own.formKey === 'scs1';
  return true;
});
