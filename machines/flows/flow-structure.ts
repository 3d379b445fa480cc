/**
 * Structure helpers shared by the path tests, coverage and diagram tools: the state nodes and candidate
 * transitions of a machine, stable transition names, delays, and the events to try in a state.
 * machines/flows/index.ts re-exports them.
 */
import type {
  AnyEventObject,
  AnyMachineSnapshot,
  AnyStateMachine,
  EventObject,
  MachineContext,
  StateNode,
  TransitionDefinition,
} from 'xstate';
import type { FlowEntry } from './flow-entry';

export type FlowStateNode = StateNode<MachineContext, EventObject>;
export type FlowTransition = TransitionDefinition<MachineContext, EventObject>;

/** Every state node of a machine, depth first (the root excluded). */
export function stateNodesOf(machine: AnyStateMachine): FlowStateNode[] {
  const walk = (node: FlowStateNode): FlowStateNode[] =>
    Object.values(node.states).flatMap((child) => [child, ...walk(child)]);
  return walk(machine.root as FlowStateNode);
}

/** A stable name for one candidate transition: `source --event[i]--> targets`. */
export function transitionKey(t: FlowTransition): string {
  const candidates =
    t.eventType === '' ? (t.source.always ?? []) : (t.source.transitions.get(t.eventType) ?? []);
  const targets = (t.target ?? []).map((n) => n.id).join(',') || '(self)';
  return `${t.source.id} --${t.eventType || 'always'}[${candidates.indexOf(t)}]--> ${targets}`;
}

/** Every candidate transition of a machine (the root's own included): events, delays, actor outcomes, eventless. */
export function transitionsOf(machine: AnyStateMachine): FlowTransition[] {
  return [machine.root as FlowStateNode, ...stateNodesOf(machine)].flatMap((node) => [
    ...[...node.transitions.values()].flat(),
    ...(node.always ?? []),
  ]);
}

/** The `xstate.after.*` events of a machine, so a traversal can fire each delay. */
export function delayedEventsOf(machine: AnyStateMachine): AnyEventObject[] {
  return stateNodesOf(machine).flatMap((node) => node.after.map((t) => ({ type: t.eventType })));
}

/** Everything to try in a state: the sample events, the delays and the actor outcomes. */
export function traversalEvents(entry: FlowEntry): (snapshot: AnyMachineSnapshot) => AnyEventObject[] {
  const all = [
    ...entry.events,
    ...delayedEventsOf(entry.machine),
    ...Object.values(entry.actorOutcomes).flat(),
  ];
  return (snapshot) => all.filter((event) => snapshot.machine.getTransitionData(snapshot, event).length > 0);
}
