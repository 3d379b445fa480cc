/**
 * `npm run docs:flows`: writes the Mermaid diagram of every machine of FLOW_REGISTRY into its page in
 * docs/flows/ (the entry's `doc`), between `<!-- diagram:start -->` and `<!-- diagram:end -->`, keeping the
 * prose around them; a missing page is created with a heading and the markers.
 * `npm run docs:flows -- --check` writes nothing and exits 1 listing the pages whose diagram is stale (CI).
 */
import { writeFileSync } from 'node:fs';
import { FLOW_REGISTRY } from '../machines/flows';
import { docUpdates } from './flows/diagram';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--check');
if (unknown.length > 0) {
  console.error(`Unknown argument ${unknown.join(' ')}. Usage: tsx scripts/flow-diagrams.ts [--check]`);
  process.exit(2);
}
const check = args.includes('--check');
const updates = docUpdates(FLOW_REGISTRY);
const stale = updates.filter((u) => u.current !== u.next);

if (check) {
  if (stale.length > 0) {
    console.error('Flow diagrams out of date with their machines:');
    for (const u of stale) console.error(`  - ${u.file}${u.current === undefined ? ' (missing)' : ''}`);
    console.error('Run `npm run docs:flows` and commit the result (edit the machine, not the diagram).');
    process.exit(1);
  }
  console.log(`Flow diagrams up to date (${updates.length}: ${updates.map((u) => u.file).join(', ')}).`);
} else {
  for (const u of updates) {
    if (u.current === u.next) console.log(`unchanged ${u.file}`);
    else {
      writeFileSync(u.path, u.next);
      console.log(`${u.current === undefined ? 'created' : 'updated'} ${u.file}`);
    }
  }
}
