import {
  type AdjacencyMap,
  getAdjacencyMap,
  getShortestPaths,
  getSimplePaths,
  type SerializedEvent,
  type SerializedSnapshot,
  type StatePath,
} from '@xstate/graph';
import {
  type ActorLogic,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type StateValue,
  createActor,
  fromPromise,
  SimulatedClock,
} from 'xstate';
import {
  type FlowEntry,
  type FlowStateNode,
  type FlowTransition,
  stateNodesOf,
  transitionKey,
  traversalEvents,
} from '../../machines/flows';

/**
 * Path generation and replay for the flows of `FLOW_REGISTRY`. The graph is walked with `@xstate/graph`
 * (pure `machine.transition`); every path is then replayed on a real actor whose invoked actors never settle,
 * so each actor outcome and each delay arrives only as the path's own event, and the clock is simulated.
 */
export type FlowPath = StatePath<AnyMachineSnapshot, AnyEventObject>;

type Logic = ActorLogic<AnyMachineSnapshot, AnyEventObject, unknown>;

/** The traversal limit when the registry entry sets none: far above any flow's graph, low enough to fail fast. */
export const DEFAULT_TRAVERSAL_LIMIT = 10_000;

const traversal = (entry: FlowEntry) => ({
  input: entry.input(),
  events: traversalEvents(entry),
  serializeState: (s: AnyMachineSnapshot) => entry.serializeState(s),
  limit: entry.traversalLimit ?? DEFAULT_TRAVERSAL_LIMIT,
});

/** The shortest path to every distinct (serialised) state. */
export function shortestPaths(entry: FlowEntry): FlowPath[] {
  return getShortestPaths<Logic>(entry.machine, traversal(entry));
}

/** The adjacency map of the graph: per serialised state, the state each event leads to. */
export function adjacencyOf(entry: FlowEntry): AdjacencyMap<AnyMachineSnapshot, AnyEventObject> {
  return getAdjacencyMap<AnyMachineSnapshot, AnyEventObject, unknown>(entry.machine, traversal(entry));
}

/**
 * One path per edge of the graph: the shortest path to the edge's source, then the edge. Taken together they
 * take every transition the graph can take, guard branch by guard branch.
 */
export function edgePaths(entry: FlowEntry): FlowPath[] {
  const heads = new Map(shortestPaths(entry).map((p) => [entry.serializeState(p.state), p]));
  const adjacency = adjacencyOf(entry);
  // The map's keys are branded strings, which `Object.entries` does not see through.
  return (Object.keys(adjacency) as SerializedSnapshot[]).flatMap((from) => {
    const head = heads.get(from);
    const transitions = adjacency[from]?.transitions ?? {};
    if (!head) return [];
    return (Object.keys(transitions) as SerializedEvent[]).flatMap((key) => {
      const edge = transitions[key];
      if (!edge) return [];
      const { event, state } = edge;
      return [{ state, steps: [...head.steps, { event, state }], weight: head.weight + 1 }];
    });
  });
}

/** Every simple path (no state twice) from the start to a state `to` accepts (to every state without `to`). */
export function simplePaths(entry: FlowEntry, to?: (s: AnyMachineSnapshot) => boolean): FlowPath[] {
  return getSimplePaths<Logic>(entry.machine, { ...traversal(entry), ...(to ? { toState: to } : {}) });
}

/** Actors that never settle: the path decides when they finish, by sending their done or error event. */
export function pendingActors(machine: AnyStateMachine): Record<string, AnyActorLogic> {
  const ids = new Set(
    stateNodesOf(machine).flatMap((node) =>
      node.invoke.map((i) => (typeof i.src === 'string' ? i.src : i.id)),
    ),
  );
  return Object.fromEntries([...ids].map((id) => [id, fromPromise(() => new Promise<never>(() => {}))]));
}

export interface Replay {
  reached: string;
  expected: string;
  states: Set<string>;
  transitions: Set<string>;
}

/** Replays a path on a real actor; records the state nodes entered and the transitions taken. */
export function replay(entry: FlowEntry, path: FlowPath): Replay {
  const states = new Set<string>();
  const transitions = new Set<string>();
  const machine = entry.machine.provide({ actors: pendingActors(entry.machine) });
  const actor = createActor(machine, {
    input: entry.input(),
    clock: new SimulatedClock(),
    inspect: (ev) => {
      if (ev.type === '@xstate.microstep' && ev.actorRef === actor)
        for (const t of ev._transitions) transitions.add(transitionKey(t as FlowTransition));
      if (ev.type === '@xstate.snapshot' && ev.actorRef === actor)
        for (const id of activeStateIds(ev.snapshot as AnyMachineSnapshot)) states.add(id);
    },
  });
  actor.start();
  for (const id of activeStateIds(actor.getSnapshot())) states.add(id);
  for (const step of path.steps) {
    if (step.event.type === 'xstate.init') continue;
    actor.send(step.event);
  }
  const reached = entry.serializeState(actor.getSnapshot());
  actor.stop();
  return { reached, expected: entry.serializeState(path.state), states, transitions };
}

/** Ids of the active state nodes, e.g. `loginOtp.codeSent.resend.waiting` and each of its ancestors. */
export function activeStateIds(snapshot: AnyMachineSnapshot): string[] {
  const walk = (node: FlowStateNode, value: StateValue): FlowStateNode[] =>
    typeof value === 'string'
      ? [node.states[value]].filter((n): n is FlowStateNode => n !== undefined)
      : Object.entries(value).flatMap(([key, sub]) => {
          const child = node.states[key];
          return child ? [child, ...(sub === undefined ? [] : walk(child, sub))] : [];
        });
  return walk(snapshot.machine.root as FlowStateNode, snapshot.value as StateValue).map((n) => n.id);
}

/** Moves a simulated clock forward in steps, so each re-armed timer (a 1 s countdown) fires in turn. */
export function advance(clock: SimulatedClock, ms: number, step = 1000): void {
  for (let left = ms; left > 0; left -= step) clock.increment(Math.min(step, left));
}
