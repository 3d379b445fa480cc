import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  FLOW_REGISTRY,
  type FlowEntry,
  type FlowStateNode,
  stateNodesOf,
  transitionKey,
  transitionsOf,
} from '../../machines/flows';
import { edgePaths, type FlowPath, type Replay, replay, shortestPaths, simplePaths } from './support';

/**
 * State and transition coverage of every flow of `FLOW_REGISTRY`, shared by `tests/paths/coverage.test.ts`
 * and `npm run test:paths` (scripts/flow-coverage.ts). Per machine it generates the `@xstate/graph` paths
 * (the shortest path to every state, one path per graph edge, and the simple paths the entry asks for),
 * replays each on the real machine with its actors injected (`replay` in ./support), and counts the state
 * nodes entered and the candidate transitions taken against the machine's own structure, less what the
 * entry lists as `unreachable` (each with its reason).
 */

export type PathKind = 'shortest' | 'edge' | 'simple';

export interface PathRun {
  kind: PathKind;
  path: FlowPath;
  result: Replay;
}

export interface Tally {
  /** Reached (taken) of the states (transitions) not listed as unreachable. */
  covered: number;
  total: number;
  missing: string[];
}

export interface FlowCoverage {
  id: string;
  runs: PathRun[];
  /** Paths whose replay on the real machine ended in another state than the graph says. */
  mismatches: string[];
  states: Tally;
  transitions: Tally;
  /** The entry's `unreachable` list: state id or transition key, and the reason. */
  unreachable: [string, string][];
  /** Entries of that list that name nothing in the machine, are reached after all, or give no reason. */
  unreachableProblems: string[];
  /** Why simple paths were not walked, when the entry skips them. */
  simpleSkipped?: string;
}

/** `a > b > c`: the events of a path, for messages. */
export const describePath = (path: FlowPath): string =>
  path.steps
    .map((s) => s.event.type)
    .filter((t) => t !== 'xstate.init')
    .join(' > ') || '(initial)';

function generatePaths(entry: FlowEntry): { kind: PathKind; path: FlowPath }[] {
  const tag = (kind: PathKind, paths: FlowPath[]) => paths.map((path) => ({ kind, path }));
  const simple = entry.simplePaths ?? {};
  return [
    ...tag('shortest', shortestPaths(entry)),
    ...tag('edge', edgePaths(entry)),
    ...tag('simple', 'skip' in simple ? [] : simplePaths(entry, simple.to)),
  ];
}

const tally = (all: string[], seen: Set<string>, excluded: (key: string) => boolean): Tally => {
  const counted = all.filter((k) => !excluded(k));
  const missing = counted.filter((k) => !seen.has(k));
  return { covered: counted.length - missing.length, total: counted.length, missing };
};

/**
 * Coverage of a set of replays against the entry's machine. A state listed as unreachable takes its nested
 * states and the transitions leaving them out of the count with it.
 */
export function measure(entry: FlowEntry, runs: PathRun[]): FlowCoverage {
  const listed = Object.entries(entry.unreachable ?? {});
  const unreachable = new Set(listed.map(([key]) => key));
  const nodes = stateNodesOf(entry.machine);
  const allStates = nodes.map((n) => n.id);
  const transitions = transitionsOf(entry.machine);
  const allTransitions = transitions.map(transitionKey);
  const inUnreachable = (node: FlowStateNode | undefined): boolean =>
    node !== undefined && (unreachable.has(node.id) || inUnreachable(node.parent));
  const excludedStates = new Set(nodes.filter(inUnreachable).map((n) => n.id));
  const excludedTransitions = new Set(transitions.filter((t) => inUnreachable(t.source)).map(transitionKey));
  const seenStates = new Set(runs.flatMap((r) => [...r.result.states]));
  const seenTransitions = new Set(runs.flatMap((r) => [...r.result.transitions]));
  const known = new Set([...allStates, ...allTransitions]);
  const unreachableProblems = listed.flatMap(([key, reason]) => [
    ...(known.has(key) ? [] : [`${key}: names no state or transition of ${entry.id}`]),
    ...(seenStates.has(key) || seenTransitions.has(key)
      ? [`${key}: listed as unreachable, but a path reaches it`]
      : []),
    ...(reason.trim() === '' ? [`${key}: no reason given`] : []),
  ]);
  const simple = entry.simplePaths;
  return {
    id: entry.id,
    runs,
    mismatches: runs
      .filter((r) => r.result.reached !== r.result.expected)
      .map(
        (r) =>
          `${r.kind} path ${describePath(r.path)}: ended in ${r.result.reached}, expected ${r.result.expected}`,
      ),
    states: tally(allStates, seenStates, (id) => excludedStates.has(id)),
    transitions: tally(
      allTransitions,
      seenTransitions,
      (k) => unreachable.has(k) || excludedTransitions.has(k),
    ),
    unreachable: listed,
    unreachableProblems,
    ...(simple && 'skip' in simple ? { simpleSkipped: simple.skip } : {}),
  };
}

const cache = new Map<FlowEntry, FlowCoverage>();

/** Generates and replays the entry's paths (once per process) and measures their coverage. */
export function flowCoverage(entry: FlowEntry): FlowCoverage {
  let result = cache.get(entry);
  if (!result) {
    const runs = generatePaths(entry).map(({ kind, path }) => ({ kind, path, result: replay(entry, path) }));
    result = measure(entry, runs);
    cache.set(entry, result);
  }
  return result;
}

/** Everything is replayed where the graph says, every counted state and transition is covered. */
export const isComplete = (c: FlowCoverage): boolean =>
  c.mismatches.length === 0 &&
  c.states.missing.length === 0 &&
  c.transitions.missing.length === 0 &&
  c.unreachableProblems.length === 0;

/** `12/12 (100 %)`; an empty set counts as complete. */
export const ratio = ({ covered, total }: Tally): string =>
  `${covered}/${total} (${total === 0 ? 100 : Math.floor((100 * covered) / total)} %)`;

export const FLOWS_DIR = fileURLToPath(new URL('../../machines/flows/', import.meta.url));

const isMachine = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  'root' in value &&
  'config' in value &&
  typeof (value as { transition?: unknown }).transition === 'function';

/**
 * The `*.machine.ts` files of machines/flows/ whose machines are not all in the registry (or that export
 * none), as messages; empty when the registry is complete.
 */
export async function unregisteredMachineFiles(
  registry: readonly FlowEntry[] = FLOW_REGISTRY,
): Promise<string[]> {
  const registered = new Set<unknown>(registry.map((e) => e.machine));
  const files = readdirSync(FLOWS_DIR)
    .filter((f) => f.endsWith('.machine.ts'))
    .sort();
  const problems: string[] = [];
  for (const file of files) {
    const exports = (await import(pathToFileURL(FLOWS_DIR + file).href)) as Record<string, unknown>;
    const machines = Object.entries(exports).filter(([, value]) => isMachine(value));
    if (machines.length === 0) problems.push(`machines/flows/${file}: exports no state machine`);
    for (const [name, machine] of machines)
      if (!registered.has(machine))
        problems.push(`machines/flows/${file}: ${name} is not in FLOW_REGISTRY (machines/flows/index.ts)`);
  }
  return problems;
}
