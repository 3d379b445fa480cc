/**
 * The pages as a browser receives them (part of `npm run bench`): the start-up time of `npm start`, the
 * bytes a browser actually transfers for each route (the server's own Content-Encoding, as Chromium
 * negotiates it) and Lighthouse mobile (default throttling) on the same routes, median of 3.
 *
 * The server measured is the real `npm start` (scripts/launch.mjs) on PGlite in a fresh DATA_DIR: started
 * once on the empty directory (first start: the build's PGlite template, migrations, seed), then three
 * times on the same directory (restarts, median); the pages are measured against the last.
 *
 * Env: BENCH_PAGES_PORT (default 3501), BENCH_LIGHTHOUSE_RUNS (default 3; 0 skips Lighthouse),
 *      CHROMIUM_PATH (default /usr/bin/chromium when it exists, else Playwright's).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Request } from '@playwright/test';

export const PAGE_ROUTES = ['/', '/faq', '/form-a2-step1', '/find-my-case'] as const;
export const TARGETS = {
  performance: 95,
  lcpMs: 2000,
  tbtMs: 150,
  cls: 0.02,
  startupMs: 5000,
};

const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Startup {
  /** Until /api/health answered 200 after `npm start`, on an empty DATA_DIR. */
  firstMs: number;
  /** The same, on the DATA_DIR the first start left: median of 3 restarts. */
  restartMs: number;
}

export interface Transfer {
  route: string;
  /** Every response of the page load, as transferred (headers + encoded body). */
  totalKb: number;
  jsKb: number;
  cssKb: number;
  htmlKb: number;
  requests: number;
}

export interface LighthouseResult {
  route: string;
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
}

interface Started {
  child: ChildProcess;
  ms: number;
}

async function startPortal(port: number, dataDir: string): Promise<Started> {
  const started = performance.now();
  // The same command as `npm start`, without npm's own start-up in front of it.
  const child = spawn(process.execPath, ['scripts/launch.mjs'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/api/health`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return { child, ms: performance.now() - started };
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) {
      child.kill('SIGTERM');
      throw new Error('npm start did not answer /api/health within 60 s');
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Bytes transferred for one page load in Chromium, until the network is idle and the page has an h1. */
async function measureTransfer(baseUrl: string, routes: readonly string[]): Promise<Transfer[]> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')),
  });
  const results: Transfer[] = [];
  try {
    for (const route of routes) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const requests: Request[] = [];
      page.on('requestfinished', (r) => requests.push(r));
      await page.goto(baseUrl + route, { waitUntil: 'networkidle' });
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const t: Transfer = { route, totalKb: 0, jsKb: 0, cssKb: 0, htmlKb: 0, requests: requests.length };
      for (const request of requests) {
        const sizes = await request.sizes();
        const kb = (sizes.responseBodySize + sizes.responseHeadersSize) / 1024;
        t.totalKb += kb;
        const type = request.resourceType();
        if (type === 'script') t.jsKb += kb;
        else if (type === 'stylesheet') t.cssKb += kb;
        else if (type === 'document') t.htmlKb += kb;
      }
      results.push(t);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

/** The median of the values measured (a run whose metric Lighthouse could not measure is left out). */
function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Lighthouse's default (mobile, simulated throttling), performance only, `runs` times per route. */
async function measureLighthouse(
  baseUrl: string,
  routes: readonly string[],
  runs: number,
): Promise<LighthouseResult[]> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const results: LighthouseResult[] = [];
  for (const route of routes) {
    const samples: LighthouseResult[] = [];
    for (let i = 0; i < runs; i++) {
      // A new browser per run: no cache, no service worker, no stored language from the run before.
      const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: CHROME_FLAGS });
      try {
        const result = await lighthouse(baseUrl + route, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
        });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse gave no result for ${route}`);
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
        // Say why a metric is missing (a run Lighthouse could not finish), rather than hide it in a median.
        const missing = ['largest-contentful-paint', 'total-blocking-time'].filter(
          (id) => lhr.audits[id]?.numericValue === undefined,
        );
        if (lhr.runtimeError || missing.length > 0)
          process.stdout.write(
            `\n  ${route} run ${i + 1}: ${lhr.runtimeError?.code ?? ''} ${missing
              .map((id) => `${id}: ${lhr.audits[id]?.errorMessage ?? 'not measured'}`)
              .join('; ')}\n`,
          );
        samples.push({
          route,
          performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: audit('largest-contentful-paint'),
          tbtMs: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          fcpMs: audit('first-contentful-paint'),
        });
      } finally {
        chrome.kill();
      }
    }
    results.push({
      route,
      performance: median(samples.map((s) => s.performance)),
      lcpMs: median(samples.map((s) => s.lcpMs)),
      tbtMs: median(samples.map((s) => s.tbtMs)),
      cls: median(samples.map((s) => s.cls)),
      fcpMs: median(samples.map((s) => s.fcpMs)),
    });
    process.stdout.write('.');
  }
  process.stdout.write('\n');
  return results;
}

const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const kb = (n: number) => `${n.toFixed(1)} KB`;

/** Runs the page benchmarks and prints them beside the targets. */
export async function benchPages(): Promise<void> {
  const port = Number(process.env.BENCH_PAGES_PORT || 3501);
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bd-bench-start-'));
  let child: ChildProcess | undefined;
  try {
    console.log('\n== Start-up of `npm start` on an already built tree (PGlite) ==');
    const first = await startPortal(port, dataDir);
    await stop(first.child);
    const restarts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const again = await startPortal(port, dataDir);
      restarts.push(again.ms);
      if (i < 2) await stop(again.child);
      else child = again.child;
    }
    const startup: Startup = { firstMs: first.ms, restartMs: median(restarts) };
    console.log(`  first start (empty DATA_DIR): ${(startup.firstMs / 1000).toFixed(2)} s`);
    console.log(`  restart (existing DATA_DIR, median of 3):  ${(startup.restartMs / 1000).toFixed(2)} s`);

    const baseUrl = `http://127.0.0.1:${port}`;
    console.log('\n== Bytes a browser receives (Chromium, the server’s own encoding) ==');
    const transfers = await measureTransfer(baseUrl, PAGE_ROUTES);
    console.log('| route | total | JS | CSS | HTML | requests |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const t of transfers)
      console.log(
        `| ${t.route} | ${kb(t.totalKb)} | ${kb(t.jsKb)} | ${kb(t.cssKb)} | ${kb(t.htmlKb)} | ${t.requests} |`,
      );

    let lighthouse: LighthouseResult[] = [];
    if (runs > 0) {
      process.stdout.write(`\n== Lighthouse mobile (median of ${runs}) `);
      lighthouse = await measureLighthouse(baseUrl, PAGE_ROUTES, runs);
      console.log('| route | performance | LCP | TBT | CLS | FCP |');
      console.log('|---|---:|---:|---:|---:|---:|');
      for (const l of lighthouse)
        console.log(
          `| ${l.route} | ${l.performance} | ${(l.lcpMs / 1000).toFixed(2)} s | ${Math.round(l.tbtMs)} ms | ${l.cls.toFixed(3)} | ${(l.fcpMs / 1000).toFixed(2)} s |`,
        );
    }

    console.log('\n== Page targets ==');
    console.log(
      `  start-up (restart) <= ${TARGETS.startupMs / 1000} s: ${(startup.restartMs / 1000).toFixed(2)} s  ${pass(startup.restartMs <= TARGETS.startupMs)}`,
    );
    console.log(
      `  start-up (first, empty DATA_DIR) <= ${TARGETS.startupMs / 1000} s: ${(startup.firstMs / 1000).toFixed(2)} s  ${pass(startup.firstMs <= TARGETS.startupMs)}`,
    );
    for (const l of lighthouse) {
      console.log(
        `  ${l.route}: performance ${l.performance} (>= ${TARGETS.performance}) ${pass(l.performance >= TARGETS.performance)}, ` +
          `LCP ${(l.lcpMs / 1000).toFixed(2)} s (<= ${TARGETS.lcpMs / 1000} s) ${pass(l.lcpMs <= TARGETS.lcpMs)}, ` +
          `TBT ${Math.round(l.tbtMs)} ms (<= ${TARGETS.tbtMs} ms) ${pass(l.tbtMs <= TARGETS.tbtMs)}, ` +
          `CLS ${l.cls.toFixed(3)} (<= ${TARGETS.cls}) ${pass(l.cls <= TARGETS.cls)}`,
      );
    }
  } finally {
    if (child) await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
