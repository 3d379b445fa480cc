/**
 * The JavaScript budgets of docs/performance.md, measured from the build (dist/ and Vite's manifest), at the size the
 * server sends (brotli):
 * - before the largest contentful paint: every route below is prerendered, so its content (the LCP
 *   element) is in the HTML and waits for no script; what the browser must still fetch and run before
 *   the page is ready is the entry module and its static imports, which the budget counts;
 * - to hydrate (reported beside it): that plus the page's modulepreloads (layout, page, message files);
 * - the code-splitting rule, over the hydration set: a page never loads another flow's code.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';

export interface Budget {
  route: string;
  /** The HTML the server answers for the route in this language (prerendered). */
  file: string;
  /** Before the largest contentful paint. */
  maxKb: number;
  /** Everything the page loads to hydrate: a ceiling, so it cannot grow unnoticed. */
  maxHydrateKb: number;
  /** Source modules (as Vite's manifest names them) this route must not load. */
  forbidden: string[];
}

const FLOW_MODULES = {
  wizard: 'flows/apply/ApplyStepPage.tsx',
  laterSteps: [
    'flows/apply/PreviewStep.tsx',
    'flows/apply/DocumentsStep.tsx',
    'flows/apply/SuccessStep.tsx',
    'flows/signing/SignStep.tsx',
  ],
  findMyCase: 'flows/login/FindMyCasePage.tsx',
};

const INFO_FORBIDDEN = [FLOW_MODULES.wizard, ...FLOW_MODULES.laterSteps, FLOW_MODULES.findMyCase];

/** Information pages: 100 KB before LCP (docs/performance.md); about 200 KB to hydrate today, 10 % of margin. */
const INFO = { maxKb: 100, maxHydrateKb: 220, forbidden: INFO_FORBIDDEN };
/**
 * A wizard step or Find my case: 200 KB before LCP (docs/performance.md); about 273 KB to hydrate today, of which the
 * date field (react-aria and @internationalized/date, for dates in the page language's order) is about 26 KB.
 */
const FLOW = { maxKb: 200, maxHydrateKb: 300 };

/** The budgets, per route and language. */
export function budgets(languages: readonly string[]): Budget[] {
  return languages.flatMap((lang) => [
    { route: '/', file: `prerendered/${lang}/index.html`, ...INFO },
    { route: '/faq', file: `prerendered/${lang}/faq.html`, ...INFO },
    { route: '/registration-school', file: `prerendered/${lang}/registration-school.html`, ...INFO },
    {
      route: '/form-a2-step1',
      file: `prerendered/${lang}/form-a2-step1.html`,
      ...FLOW,
      forbidden: [...FLOW_MODULES.laterSteps, FLOW_MODULES.findMyCase],
    },
    {
      route: '/find-my-case',
      file: `prerendered/${lang}/find-my-case.html`,
      ...FLOW,
      forbidden: [FLOW_MODULES.wizard, ...FLOW_MODULES.laterSteps],
    },
  ]);
}

export interface BudgetResult extends Budget {
  /** Before LCP: the entry module and its static imports. */
  kb: number;
  /** Everything the page loads to hydrate: the entry chain plus the modulepreloads. */
  hydrateKb: number;
  scripts: string[];
  /** Forbidden modules the route loads anyway. */
  violations: string[];
  ok: boolean;
}

/** Script URLs an HTML page loads: module scripts and (unless `scriptsOnly`) its modulepreloads and bd-preload list. */
export function scriptsOf(html: string, scriptsOnly = false): string[] {
  const urls = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag);
    if (!isScript && (scriptsOnly || !/\brel=["']?modulepreload/i.test(tag))) continue;
    const url = (isScript ? /\bsrc=["']?([^"'\s>]+)/i : /\bhref=["']?([^"'\s>]+)/i).exec(tag)?.[1];
    if (url && !/^(https?:)?\/\//i.test(url)) urls.add(url.replace(/^\.?\//, ''));
  }
  // The chunks ui/main.tsx preloads after the first paint.
  const preload = /<meta name="bd-preload" content="([^"]*)"/.exec(html)?.[1] ?? '';
  if (!scriptsOnly) for (const url of preload.split(/\s+/).filter(Boolean)) urls.add(url.replace(/^\//, ''));
  return [...urls];
}

/** What the browser receives for a file: its .br twin, else the file brotli-compressed now. */
function brotliBytes(file: string): number {
  if (existsSync(`${file}.br`)) return readFileSync(`${file}.br`).length;
  return brotliCompressSync(readFileSync(file)).length;
}

export function checkBudgets(dist: string, list: Budget[]): BudgetResult[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; isEntry?: boolean }
  >;
  const byFile = new Map(Object.values(manifest).map((c) => [c.file, c]));
  const withImports = (file: string, into = new Set<string>()): Set<string> => {
    if (into.has(file)) return into;
    into.add(file);
    for (const key of byFile.get(file)?.imports ?? []) {
      const imported = manifest[key]?.file;
      if (imported) withImports(imported, into);
    }
    return into;
  };
  const sizeOf = (files: Iterable<string>) =>
    [...files].reduce((sum, s) => sum + brotliBytes(path.join(dist, s)), 0) / 1024;
  return list.map((budget) => {
    const htmlFile = path.join(dist, budget.file);
    if (!existsSync(htmlFile)) throw new Error(`${budget.file} is missing: run \`npm run build\``);
    const html = readFileSync(htmlFile, 'utf8');
    if (!html.includes('data-prerendered=')) throw new Error(`${budget.file} is not prerendered`);
    const entry = new Set<string>();
    for (const s of scriptsOf(html, true)) withImports(s, entry);
    const scripts = [...new Set([...entry, ...scriptsOf(html)])];
    const kb = sizeOf(entry);
    const hydrateKb = sizeOf(scripts);
    const violations = budget.forbidden.filter((m) => {
      const file = manifest[m]?.file;
      return file !== undefined && scripts.includes(file);
    });
    return {
      ...budget,
      kb,
      hydrateKb,
      scripts,
      violations,
      ok: kb <= budget.maxKb && hydrateKb <= budget.maxHydrateKb && violations.length === 0,
    };
  });
}
