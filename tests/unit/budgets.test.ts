import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBudgets, type Budget } from '../../scripts/budgets';

let dist: string;

/** A small build: an entry importing `vendor` (incompressible bytes of the given size) and a wizard chunk. */
function build(vendorKb: number, preload: string[]): string {
  dist = mkdtempSync(path.join(tmpdir(), 'bd-budget-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  mkdirSync(path.join(dist, 'prerendered'));
  writeFileSync(path.join(dist, 'assets', 'index.js'), 'import "./vendor.js";');
  writeFileSync(path.join(dist, 'assets', 'vendor.js'), randomBytes(vendorKb * 1024).toString('base64'));
  writeFileSync(path.join(dist, 'assets', 'wizard.js'), 'export default 1;');
  writeFileSync(
    path.join(dist, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'] },
      '_vendor.js': { file: 'assets/vendor.js' },
      'flows/apply/ApplyStepPage.tsx': { file: 'assets/wizard.js' },
    }),
  );
  const links = preload.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
  writeFileSync(
    path.join(dist, 'prerendered', 'home.html'),
    `<html><head><script type="module" crossorigin src="/assets/index.js"></script>${links}</head><body><div id="root" data-prerendered="en"><h1>Home</h1></div></body></html>`,
  );
  return dist;
}

const budget: Budget = {
  route: '/',
  file: 'prerendered/home.html',
  maxKb: 100,
  maxHydrateKb: 150,
  forbidden: ['flows/apply/ApplyStepPage.tsx'],
};

afterEach(() => rmSync(dist, { recursive: true, force: true }));

describe('JavaScript budgets', () => {
  it('passes a page whose entry chain is within its budget', () => {
    const [result] = checkBudgets(build(50, []), [budget]);

    expect(result?.ok).toBe(true);
    expect(result?.kb).toBeGreaterThan(50);
    expect(result?.kb).toBeLessThan(100);
  });

  it('fails a page whose entry chain, imports included, is over its budget', () => {
    const [result] = checkBudgets(build(120, []), [budget]);

    expect(result?.ok).toBe(false);
    expect(result?.kb).toBeGreaterThan(100);
  });

  it('fails a page whose hydration set is over its ceiling, though its entry is small', () => {
    const [result] = checkBudgets(build(0, []), [budget]);
    writeFileSync(path.join(dist, 'assets', 'wizard.js'), randomBytes(160 * 1024).toString('base64'));
    const html = path.join(dist, 'prerendered', 'home.html');
    writeFileSync(
      html,
      '<html><head><script type="module" src="/assets/index.js"></script><meta name="bd-preload" content="/assets/wizard.js"></head><body><div id="root" data-prerendered="en"></div></body></html>',
    );
    const [over] = checkBudgets(dist, [{ ...budget, forbidden: [] }]);

    expect(result?.ok).toBe(true);
    expect(over?.kb).toBeLessThan(1);
    expect(over?.hydrateKb).toBeGreaterThan(150);
    expect(over?.ok).toBe(false);
  });

  it('fails a page that preloads another flow’s code', () => {
    const [result] = checkBudgets(build(10, ['assets/wizard.js']), [budget]);

    expect(result?.ok).toBe(false);
    expect(result?.violations).toEqual(['flows/apply/ApplyStepPage.tsx']);
  });
});
