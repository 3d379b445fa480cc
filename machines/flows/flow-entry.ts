/**
 * The shape of a flow registry entry (what the path tests, coverage and diagram tools need of a machine),
 * `defineFlow` that types an entry for its machine, the actor outcome helpers and the fixed clock the
 * entries use. machines/flows/index.ts re-exports what tools read.
 */
import type {
  AnyEventObject,
  AnyMachineSnapshot,
  AnyStateMachine,
  EventFrom,
  InputFrom,
  SnapshotFrom,
} from 'xstate';

/**
 * The flow registry: everything a tool needs to walk, draw or measure a machine (the generated path tests,
 * the inspector, the diagrams, coverage). A tool reads only machines/flows/index.ts, which re-exports it.
 */
export interface FlowEntry {
  id: string;
  machine: AnyStateMachine;
  /** An input for tests and traversal (a fixed clock where the machine takes one). */
  input: () => unknown;
  /** The events to try in every state, with sample payloads (one per branch the guards tell apart). */
  events: readonly AnyEventObject[];
  /** Keeps the state value and the few context facts guards read, so each graph node is a real difference. */
  serializeState: (snapshot: AnyMachineSnapshot) => string;
  /** Per invoked actor id, the outcomes to try, as the events XState raises for them. */
  actorOutcomes: Record<string, readonly AnyEventObject[]>;
  /** State ids (`machine.state`) or transition keys (see `transitionKey`) no path can reach, with the reason. */
  unreachable?: Record<string, string>;
  /** Its page in `docs/flows/`, e.g. `login.md`: `npm run docs:flows` writes the diagram between its markers. */
  doc: string;
  /**
   * Simple paths (no state twice) replayed besides the shortest path to every state and one path per graph
   * edge: those ending in a state `to` accepts (every state when `to` is absent), or `{ skip: reason }` where
   * they are too many to walk (they grow with every branch; the login flow's take over a minute).
   */
  simplePaths?: { to?: (snapshot: AnyMachineSnapshot) => boolean } | { skip: string };
  /**
   * Generated sections of its page besides the diagram: marker name → markdown, written between
   * `<!-- name:start -->` and `<!-- name:end -->` by `npm run docs:flows` (the case's rules table).
   */
  sections?: Record<string, () => string>;
  /** The most states a graph traversal may visit before it fails (`@xstate/graph`'s `limit`); default 10 000. */
  traversalLimit?: number;
}

/** The same, typed for one machine: what `defineFlow` checks before the entry joins the registry. */
interface TypedFlowEntry<TMachine extends AnyStateMachine> extends Omit<
  FlowEntry,
  'input' | 'events' | 'serializeState' | 'simplePaths'
> {
  machine: TMachine;
  input: () => InputFrom<TMachine>;
  events: readonly EventFrom<TMachine>[];
  serializeState: (snapshot: SnapshotFrom<TMachine>) => string;
  simplePaths?: { to?: (snapshot: SnapshotFrom<TMachine>) => boolean } | { skip: string };
}

export const defineFlow = <TMachine extends AnyStateMachine>(entry: TypedFlowEntry<TMachine>): FlowEntry =>
  entry as unknown as FlowEntry;

export const done = (actorId: string, output?: unknown): AnyEventObject => ({
  type: `xstate.done.actor.${actorId}`,
  output,
});
export const failed = (actorId: string, error: unknown): AnyEventObject => ({
  type: `xstate.error.actor.${actorId}`,
  error,
});

/** The fixed instant traversals and path replays run at. */
export const GRAPH_NOW = Date.UTC(2025, 0, 6, 9, 0, 0);
