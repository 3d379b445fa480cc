/**
 * Step 4 of `npm run build`: fails the build (and so `npm test`, which builds first) when a route's
 * JavaScript is over its budget or a page loads another flow's code. See scripts/budgets.ts.
 */
import path from 'node:path';
import { LANGUAGES } from '../machines/rules/language';
import { budgets, checkBudgets } from './budgets';

const results = checkBudgets(path.resolve('dist'), budgets(LANGUAGES));
let failed = 0;
for (const r of results) {
  const where = `${r.route} (${r.file.split('/')[1]})`;
  const line = `${where}: ${r.kb.toFixed(1)} KB of JavaScript before LCP (brotli), budget ${r.maxKb} KB; ${r.hydrateKb.toFixed(1)} KB to hydrate (ceiling ${r.maxHydrateKb} KB)`;
  if (r.ok) {
    console.log(`  ok    ${line}`);
    continue;
  }
  failed += 1;
  console.error(`  OVER  ${line}${r.violations.length ? `; loads ${r.violations.join(', ')}` : ''}`);
}
if (failed > 0) {
  console.error(`${failed} budget(s) exceeded`);
  process.exit(1);
}
console.log(`JavaScript budgets: ${results.length} routes within budget`);
