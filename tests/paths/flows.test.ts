import { describe, expect, it } from 'vitest';
import { FLOW_REGISTRY } from '../../machines/flows';
import {
  coverage,
  edgePaths,
  type FlowPath,
  type Replay,
  replay,
  shortestPaths,
  simplePaths,
} from './support';

const describePath = (path: FlowPath) =>
  path.steps
    .map((s) => s.event.type)
    .filter((t) => t !== 'xstate.init')
    .join(' > ') || '(initial)';

const once = <T>(make: () => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};

describe.each(FLOW_REGISTRY.map((entry) => [entry.id, entry] as const))('the %s flow', (_id, entry) => {
  // Each set is generated and replayed once; the coverage test uses them all, whichever tests ran before.
  const replayAll = (paths: FlowPath[]) => paths.map((path) => ({ path, result: replay(entry, path) }));
  const shortest = once(() => replayAll(shortestPaths(entry)));
  const edges = once(() => replayAll(edgePaths(entry)));
  // Simple paths explode with the login flow's branches (hundreds of paths, seconds to compute), where the
  // shortest and edge paths already cover it; the idle session is small enough to walk every simple way out.
  const simple = once(() =>
    replayAll(entry.id === 'idleSession' ? simplePaths(entry, (s) => s.matches('loggedOut')) : []),
  );

  const expectReplayed = (runs: { path: FlowPath; result: Replay }[]) => {
    for (const { path, result } of runs) expect(result.reached, describePath(path)).toBe(result.expected);
  };

  it('reaches every state of the graph by its shortest path on the real machine', () => {
    expect(shortest().length).toBeGreaterThan(1);
    expectReplayed(shortest());
  });

  it('takes every edge of the graph on the real machine', () => {
    expect(edges().length).toBeGreaterThan(shortest().length);
    expectReplayed(edges());
  });

  it('ends where the graph says along every simple path to a logout', () => {
    if (entry.id === 'idleSession') expect(simple().length).toBeGreaterThan(3);
    expectReplayed(simple());
  });

  it('covers every state and every transition, less the ones listed as unreachable with a reason', () => {
    const result = coverage(
      entry,
      [...shortest(), ...edges(), ...simple()].map((r) => r.result),
    );
    const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)} %`;
    console.log(
      `${entry.id}: states ${result.states.reached}/${result.states.total} (${pct(result.states.reached, result.states.total)}), ` +
        `transitions ${result.transitions.taken}/${result.transitions.total} (${pct(result.transitions.taken, result.transitions.total)})`,
    );
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
    for (const [what, reason] of Object.entries(entry.unreachable ?? {}))
      expect(reason.trim(), what).not.toBe('');
  });
});
