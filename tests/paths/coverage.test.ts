import { describe, expect, it } from 'vitest';
import { FLOW_REGISTRY } from '../../machines/flows';
import { flowCoverage, ratio, unregisteredMachineFiles } from './coverage';

// One test per registered machine: every path generated from its graph (shortest, per edge, simple unless the
// entry skips them) ends on the real machine where the graph says, and together they cover 100 % of its states
// and transitions, less those the registry lists as unreachable with a reason. `npm run test:paths` prints
// the same numbers as a table.
describe('flow coverage', () => {
  it('has every machine of machines/flows/*.machine.ts in FLOW_REGISTRY', async () => {
    expect(await unregisteredMachineFiles()).toEqual([]);
  });

  it.each(FLOW_REGISTRY.map((entry) => [entry.id, entry] as const))(
    '%s: replays every generated path and covers 100 % of its states and transitions',
    (id, entry) => {
      const result = flowCoverage(entry);
      const count = (kind: string) => result.runs.filter((r) => r.kind === kind).length;
      console.log(
        `${id}: states ${ratio(result.states)}, transitions ${ratio(result.transitions)}, ` +
          `paths ${count('shortest')} shortest, ${count('edge')} edge, ` +
          (result.simpleSkipped ? 'simple skipped' : `${count('simple')} simple`),
      );
      expect(count('shortest'), 'shortest paths').toBeGreaterThan(1);
      if (!result.simpleSkipped) expect(count('simple'), 'simple paths').toBeGreaterThan(0);
      expect(result.mismatches).toEqual([]);
      expect(result.states.missing).toEqual([]);
      expect(result.transitions.missing).toEqual([]);
      expect(result.unreachableProblems).toEqual([]);
    },
    // Generating and replaying a large flow's paths takes seconds.
    60_000,
  );
});
