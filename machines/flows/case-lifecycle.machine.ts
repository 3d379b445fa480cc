import { setup, transition, type SnapshotFrom } from 'xstate';
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

/**
 * The case lifecycle as a statechart: the truth for the API (which refuses what it does not allow now) and
 * for the screens (which offer only what it allows). Built from the transition table of
 * machines/rules/case-lifecycle.ts: the open statuses are children of `open`, where withdrawal, rejection
 * and the follow-ups that keep the status are allowed; each transition is guarded by who sends it. Each
 * state's `meta.status` is the code stored in `applications.status`. Pure: it records nothing itself; the
 * API writes the status, the history row and the audit event in one transaction (api/modules/cases/cases.service.ts).
 */
export interface CaseEvent {
  type: CaseEventType;
  actor: CaseActor;
}

const lifecycleSetup = setup({
  types: {
    events: {} as CaseEvent,
  },
  actions: {
    /** Marks a follow-up that adds to the case without moving it; the API records it. */
    keepStatus: () => {},
  },
  guards: {
    /** The sender is one of those the transition names. */
    isActorAllowed: ({ event }, params: { by: readonly CaseActor[] }) => params.by.includes(event.actor),
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
  guard: { type: 'isActorAllowed' as const, params: { by: t.by } },
  // A follow-up that keeps the status still happens (XState's `can` ignores a transition that does nothing).
  ...(t.to === null ? { actions: 'keepStatus' as const } : {}),
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
    ...(isFinal(status) ? { type: 'final' as const } : {}),
    on: onOf(own),
  };
}

const openStates = Object.fromEntries(OPEN_STATUSES.map((s) => [stateKeyOf(s), stateNode(s)]));
const otherStates = Object.fromEntries(
  CASE_STATUSES.filter((s) => !isOpen(s)).map((s) => [stateKeyOf(s), stateNode(s)]),
);

export const caseLifecycleMachine = lifecycleSetup.createMachine({
  id: 'caseLifecycle',
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

/** The snapshot of a case in `status`. */
export function snapshotOf(status: CaseStatus): CaseLifecycleSnapshot {
  const key = stateKeyOf(status);
  return caseLifecycleMachine.resolveState({ value: isOpen(status) ? { open: key } : key });
}

/** The status a snapshot is in (the `meta.status` of its leaf state). */
export function statusOf(snapshot: CaseLifecycleSnapshot): CaseStatus {
  const metas = Object.values(snapshot.getMeta()) as { status?: CaseStatus }[];
  const status = metas.map((m) => m.status).find((s) => s !== undefined);
  if (!status) throw new Error(`no status for ${JSON.stringify(snapshot.value)}`);
  return status;
}

/** May `actor` send `event` to a case in `status` now? */
export function canSend(status: CaseStatus, event: CaseEventType, actor: CaseActor): boolean {
  return snapshotOf(status).can({ type: event, actor });
}

/** The status after `event`, or null when the lifecycle does not allow it now. */
export function nextStatus(status: CaseStatus, event: CaseEventType, actor: CaseActor): CaseStatus | null {
  const before = snapshotOf(status);
  if (!before.can({ type: event, actor })) return null;
  const [after] = transition(caseLifecycleMachine, before, { type: event, actor });
  return statusOf(after);
}

/** The events `actor` may send in `status` (the actions the screens offer). */
export function allowedEvents(status: CaseStatus, actor: CaseActor): CaseEventType[] {
  const snapshot = snapshotOf(status);
  return CASE_TRANSITIONS.map((t) => t.event).filter((event) => snapshot.can({ type: event, actor }));
}
