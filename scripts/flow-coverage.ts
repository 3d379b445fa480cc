/**
 * `npm run test:paths`: per machine of FLOW_REGISTRY, the states reached and transitions taken by the
 * replayed `@xstate/graph` paths, as a table; exits 1 when a machine is below 100 % (less what its entry
 * lists as unreachable, with the reason), a path ends elsewhere than its graph says, or a machine file of
 * machines/flows/ is missing from the registry. The test twin is tests/paths/coverage.test.ts.
 */
import { FLOW_REGISTRY } from '../machines/flows';
import {
  type FlowCoverage,
  flowCoverage,
  isComplete,
  ratio,
  unregisteredMachineFiles,
} from '../tests/paths/coverage';

const started = Date.now();
const results: FlowCoverage[] = FLOW_REGISTRY.map((entry) => flowCoverage(entry));
const unregistered = await unregisteredMachineFiles();

const header = ['machine', 'states', 'transitions', 'unreachable'];
const rows = results.map((r) => [
  r.id,
  ratio(r.states),
  ratio(r.transitions),
  r.unreachable.length === 0 ? 'none' : r.unreachable.map(([key, reason]) => `${key}: ${reason}`).join('; '),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));

console.log('');
for (const r of results) {
  const count = (kind: string) => r.runs.filter((run) => run.kind === kind).length;
  const simple = r.simpleSkipped ? `simple paths skipped (${r.simpleSkipped})` : `${count('simple')} simple`;
  console.log(`${r.id}: replayed ${count('shortest')} shortest, ${count('edge')} edge, ${simple}`);
}

const failures = [
  ...unregistered,
  ...results.flatMap((r) => [
    ...r.states.missing.map((id) => `${r.id}: state not reached: ${id}`),
    ...r.transitions.missing.map((key) => `${r.id}: transition not taken: ${key}`),
    ...r.mismatches.map((m) => `${r.id}: ${m}`),
    ...r.unreachableProblems.map((p) => `${r.id}: unreachable list: ${p}`),
  ]),
];
console.log(`\n${results.length} machines in ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (failures.length > 0 || !results.every(isComplete)) {
  console.error(`\nFlow coverage below 100 %:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  console.error(
    'In the registry (machines/flows/index.ts): add each machine, reach what is missing with more sample ' +
      'events or actor outcomes, or list it under `unreachable` with the reason.',
  );
  process.exit(1);
}
console.log('Flow coverage: 100 % of states and transitions for every machine.');
