import { assign, setup, transition, type SnapshotFrom } from 'xstate';
import {
  CASE_STATUSES,
  CASE_TRANSITIONS,
  type CaseActor,
  type CaseEventType,
  type CaseStatus,
  type CaseTransition,
  FINAL_STATUSES,
  OPEN_STATUSES,
} from '../rules/case-lifecycle';
import {
  factsAfter,
  refusalOf,
  type CaseEventFacts,
  type LifecycleFacts,
  type CaseRuleRefusal,
} from '../rules/case-rules';

/**
 * The case lifecycle as a statechart: the truth for the API (which refuses what it does not allow now) and
 * for the screens (which offer only what it allows). Built from the transition table of
 * machines/rules/case-lifecycle.ts: the open statuses are children of `open`, where withdrawal, rejection
 * and the follow-ups that keep the status are allowed. Its context is the case's facts (machines/rules/
 * case-rules.ts): each transition is guarded by who sends it and by the case's rules on those facts, and
 * updates the facts as the API's records will (docs/flows/case-rules.md). Each state's `meta.status` is the
 * code stored in `applications.status`. Pure: it records nothing itself; the API writes the status, the
 * history row and the audit event in one transaction (api/modules/cases/case-action.ts).
 */
export interface CaseEvent {
  type: CaseEventType;
  actor: CaseActor;
  /** An AP's / RSE's registration number; an officer's `staff:<id>` (the four-eyes rule). */
  actorRef?: string;
  /**
   * The event's own facts (a date, a result, the request named). Absent: the question is whether the
   * action may be offered now, so only the case's standing facts are checked.
   */
  own?: CaseEventFacts;
}

/** The facts of a case no rule holds back: for callers that ask about the status and role only. */
export const OPEN_FACTS: LifecycleFacts = {
  today: '2000-01-03',
  holidays: [],
  formCode: '',
  lorIssued: true,
  preferredDates: [],
  inspection: { date: '2000-01-03', result: 'PASS' },
  openRequests: [],
  appointees: [],
  replyWorkingDays: 0,
  proposal: null,
};

const lifecycleSetup = setup({
  types: {
    context: {} as LifecycleFacts,
    input: {} as LifecycleFacts | undefined,
    events: {} as CaseEvent,
  },
  actions: {
    /** The facts as the API's records will say once the event is written. */
    applyFacts: assign(({ context, event }) => factsAfter(event.type, context, event.own, event.actorRef)),
  },
  guards: {
    /** The sender is one of those the transition names, and the case's rules allow the event now. */
    isAllowed: ({ context, event }, params: { by: readonly CaseActor[] }) =>
      params.by.includes(event.actor) &&
      refusalOf(event.type, event.actor, context, { actorRef: event.actorRef }, event.own) === null,
  },
});

type Node = NonNullable<Parameters<typeof lifecycleSetup.createMachine>[0]['states']>[string];

/** `SUBMITTED` → `submitted`, `LOR_ISSUED` → `lorIssued`: the state's key. */
export function stateKeyOf(status: CaseStatus): string {
  return status.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

const isOpen = (s: CaseStatus) => (OPEN_STATUSES as readonly CaseStatus[]).includes(s);
const isFinal = (s: CaseStatus) => (FINAL_STATUSES as readonly CaseStatus[]).includes(s);
const coversAllOpen = (t: CaseTransition) =>
  OPEN_STATUSES.every((s) => t.from.includes(s)) && t.from.length === OPEN_STATUSES.length;

const target = (to: CaseStatus | null) => (to === null ? undefined : `#caseLifecycle.${pathOf(to)}`);
const pathOf = (status: CaseStatus) => (isOpen(status) ? `open.${stateKeyOf(status)}` : stateKeyOf(status));

const edge = (t: CaseTransition) => ({
  target: target(t.to),
  guard: { type: 'isAllowed' as const, params: { by: t.by } },
  // Also what makes a follow-up that keeps the status a transition (XState's `can` ignores one doing nothing).
  actions: 'applyFacts' as const,
});

/** The `on` of a node: the transitions of `list`, grouped by event, in table order. */
function onOf(list: readonly CaseTransition[]) {
  const on: Record<string, ReturnType<typeof edge>[]> = {};
  for (const t of list) (on[t.event] ??= []).push(edge(t));
  return on;
}

function stateNode(status: CaseStatus): Node {
  const own = (CASE_TRANSITIONS as readonly CaseTransition[]).filter(
    (t) => !coversAllOpen(t) && t.from.includes(status),
  );
  return {
    meta: { status },
    // A decided case a correction can leave (a rejection reopened, a certificate revoked) is not final.
    ...(isFinal(status) && own.length === 0 ? { type: 'final' as const } : {}),
    on: onOf(own),
  };
}

const openStates = Object.fromEntries(OPEN_STATUSES.map((s) => [stateKeyOf(s), stateNode(s)]));
const otherStates = Object.fromEntries(
  CASE_STATUSES.filter((s) => !isOpen(s)).map((s) => [stateKeyOf(s), stateNode(s)]),
);

export const caseLifecycleMachine = lifecycleSetup.createMachine({
  id: 'caseLifecycle',
  context: ({ input }) => input ?? OPEN_FACTS,
  initial: 'open',
  states: {
    open: {
      initial: 'submitted',
      states: openStates,
      on: onOf(CASE_TRANSITIONS.filter(coversAllOpen)),
    },
    ...otherStates,
  },
});

export type CaseLifecycleSnapshot = SnapshotFrom<typeof caseLifecycleMachine>;

/** The snapshot of a case in `status` with its facts. */
export function snapshotOf(status: CaseStatus, facts: LifecycleFacts = OPEN_FACTS): CaseLifecycleSnapshot {
  const key = stateKeyOf(status);
  return caseLifecycleMachine.resolveState({ value: isOpen(status) ? { open: key } : key, context: facts });
}

/** The status a snapshot is in (the `meta.status` of its leaf state). */
export function statusOf(snapshot: CaseLifecycleSnapshot): CaseStatus {
  const metas = Object.values(snapshot.getMeta()) as { status?: CaseStatus }[];
  const status = metas.map((m) => m.status).find((s) => s !== undefined);
  if (!status) throw new Error(`no status for ${JSON.stringify(snapshot.value)}`);
  return status;
}

/** Who sends an event, and the case's facts it is decided on (default: no rule holds it back). */
export interface CaseQuery {
  actor: CaseActor;
  actorRef?: string;
  facts?: LifecycleFacts;
  own?: CaseEventFacts;
}

const eventOf = (type: CaseEventType, q: CaseQuery): CaseEvent => ({
  type,
  actor: q.actor,
  ...(q.actorRef === undefined ? {} : { actorRef: q.actorRef }),
  ...(q.own === undefined ? {} : { own: q.own }),
});

/** May the sender send `event` to a case in `status` now? */
export function canSend(status: CaseStatus, event: CaseEventType, q: CaseQuery): boolean {
  return snapshotOf(status, q.facts).can(eventOf(event, q));
}

/** The status after `event`, or null when the lifecycle does not allow it now. */
export function nextStatus(status: CaseStatus, event: CaseEventType, q: CaseQuery): CaseStatus | null {
  const before = snapshotOf(status, q.facts);
  const sent = eventOf(event, q);
  if (!before.can(sent)) return null;
  const [after] = transition(caseLifecycleMachine, before, sent);
  return statusOf(after);
}

/** The events the sender may send in `status` (the actions the screens offer). */
export function allowedEvents(status: CaseStatus, q: CaseQuery): CaseEventType[] {
  const snapshot = snapshotOf(status, q.facts);
  const { own: _own, ...offer } = q;
  return [...new Set(CASE_TRANSITIONS.map((t) => t.event))].filter((event) =>
    snapshot.can(eventOf(event, offer)),
  );
}

/**
 * Why the lifecycle refuses an event: the status or the sender's role (`status`), or a rule of the case's
 * facts (its key under `case.rules.`). Asked only once `nextStatus` said no, for the refusal's message.
 */
export function whyRefused(
  status: CaseStatus,
  event: CaseEventType,
  q: CaseQuery,
): { kind: 'status' } | { kind: 'rule'; rule: CaseRuleRefusal } {
  const byStatus = (CASE_TRANSITIONS as readonly CaseTransition[]).some(
    (t) => t.event === event && t.from.includes(status) && t.by.includes(q.actor),
  );
  const rule = byStatus
    ? refusalOf(event, q.actor, q.facts ?? OPEN_FACTS, { actorRef: q.actorRef }, q.own)
    : null;
  return rule === null ? { kind: 'status' } : { kind: 'rule', rule };
}
