/**
 * `npm run bench` (after `vite build`): first-load weight of the built SPA and API throughput.
 * Reports only; it always exits 0. Timings live here, never in pass/fail tests.
 *
 * Env: BENCH_SECONDS (default 10) per run, BENCH_CONNECTIONS (default 50),
 *      BENCH_WORKERS (default 1: autocannon runs in a worker thread so the load generator does not share
 *      the server's event loop; 0 runs it on the main thread).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import express, { type Express } from 'express';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import { openDatabase } from '../../drizzle/db';
import { seed } from '../../drizzle/seed';

const DIST = path.resolve('dist');
const FIRST_LOAD_JS_TARGET_KB = 100;
const MASTER_DATA_RATIO_TARGET = 0.5;
const seconds = Number(process.env.BENCH_SECONDS || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const workers = Number(process.env.BENCH_WORKERS ?? 1);

const gzipKb = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;
const kb = (n: number) => `${n.toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

interface BundleReport {
  jsKb: number;
  cssKb: number;
  files: string[];
  largestOther?: { file: string; kb: number };
}

/** Files index.html loads at start: module scripts, modulepreloads and stylesheets. */
function firstLoadFiles(html: string): string[] {
  const urls = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag);
    const rel = /\brel\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1]?.toLowerCase();
    if (!isScript && rel !== 'stylesheet' && rel !== 'modulepreload') continue;
    const url = (isScript ? /\bsrc\s*=\s*["']?([^"'\s>]+)/i : /\bhref\s*=\s*["']?([^"'\s>]+)/i).exec(
      tag,
    )?.[1];
    if (url && !/^(https?:)?\/\//i.test(url)) urls.add(url);
  }
  return [...urls];
}

function measureBundle(): BundleReport | undefined {
  const indexHtml = path.join(DIST, 'index.html');
  if (!existsSync(indexHtml)) return undefined;
  const files = firstLoadFiles(readFileSync(indexHtml, 'utf8'));
  let jsKb = 0;
  let cssKb = 0;
  const loaded = new Set<string>();
  for (const url of files) {
    const file = path.join(DIST, url.replace(/^\.?\//, '').split(/[?#]/)[0] ?? '');
    if (!existsSync(file)) {
      console.warn(`  (index.html loads ${url}, which is not in dist/)`);
      continue;
    }
    loaded.add(path.resolve(file));
    if (file.endsWith('.css')) cssKb += gzipKb(file);
    else jsKb += gzipKb(file);
  }
  const assets = path.join(DIST, 'assets');
  let largestOther: BundleReport['largestOther'];
  if (existsSync(assets)) {
    for (const name of readdirSync(assets)) {
      const file = path.resolve(assets, name);
      if (!name.endsWith('.js') || loaded.has(file)) continue;
      const size = gzipKb(file);
      if (!largestOther || size > largestOther.kb) largestOther = { file: `assets/${name}`, kb: size };
    }
  }
  return { jsKb, cssKb, files, largestOther };
}

function listen(app: Express): Promise<{ url: string; server: Server }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error?: Error) => {
      if (error) reject(error);
      else resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server });
    });
  });
}

interface Run {
  name: string;
  rps: number;
  p99: number;
  errors: number;
}

async function load(name: string, url: string, method: 'GET' | 'POST', body?: unknown): Promise<Run> {
  process.stdout.write(`  ${name} ... `);
  const result = await autocannon({
    url,
    method,
    connections,
    duration: seconds,
    ...(workers > 0 ? { workers } : {}),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  console.log(`${Math.round(result.requests.average)} rps`);
  return { name, rps: result.requests.average, p99: result.latency.p99, errors };
}

async function main(): Promise<void> {
  console.log('\n== First load of / (gzip -9) ==');
  const bundle = measureBundle();
  if (!bundle) {
    console.log('  dist/index.html is missing: run `npx vite build` first. Skipping the bundle measurement.');
  } else {
    console.log(`  files loaded at start: ${bundle.files.join(', ') || '(none)'}`);
    console.log(`  first-load JS:  ${kb(bundle.jsKb)}`);
    console.log(`  first-load CSS: ${kb(bundle.cssKb)}`);
    console.log(
      `  largest other JS chunk: ${bundle.largestOther ? `${bundle.largestOther.file} ${kb(bundle.largestOther.kb)}` : '(none)'}`,
    );
  }

  console.log(`\n== API throughput (${connections} connections, ${seconds} s each, in-memory PGlite) ==`);
  const database = await openDatabase({ url: '' });
  await seed(database.db);
  const portal = await listen(createApp({ db: database, logger: pino({ level: 'silent' }) }));
  const bareApp = express();
  bareApp.use(express.json());
  bareApp.post('/bare', (_req, res) => {
    res.json({ ok: true });
  });
  const bare = await listen(bareApp);

  const runs: Run[] = [];
  try {
    runs.push(await load('POST /bare', `${bare.url}/bare`, 'POST', {}));
    runs.push(
      await load(
        'POST /api/application/getmasterdata',
        `${portal.url}/api/application/getmasterdata`,
        'POST',
        {
          type: 'admin_setting',
          code: 'logout_idletime_frontend',
        },
      ),
    );
    runs.push(await load('GET /api/health', `${portal.url}/api/health`, 'GET'));
  } finally {
    portal.server.closeAllConnections();
    bare.server.closeAllConnections();
    await new Promise((r) => portal.server.close(r));
    await new Promise((r) => bare.server.close(r));
    await database.close();
  }

  const bareRps = runs[0]?.rps ?? 0;
  console.log('\n| endpoint | req/s | p99 ms | vs bare | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const run of runs) {
    const ratio = bareRps > 0 ? `${((run.rps / bareRps) * 100).toFixed(0)} %` : 'n/a';
    console.log(`| ${run.name} | ${Math.round(run.rps)} | ${run.p99} | ${ratio} | ${run.errors} |`);
  }

  const masterRatio = bareRps > 0 ? (runs[1]?.rps ?? 0) / bareRps : 0;
  console.log('\n== Targets ==');
  if (bundle) {
    console.log(
      `  first-load JS <= ${FIRST_LOAD_JS_TARGET_KB} KB gzip: ${kb(bundle.jsKb)}  ${verdict(bundle.jsKb <= FIRST_LOAD_JS_TARGET_KB)}`,
    );
  } else {
    console.log(`  first-load JS <= ${FIRST_LOAD_JS_TARGET_KB} KB gzip: not measured (no dist/)`);
  }
  console.log(
    `  master data >= ${MASTER_DATA_RATIO_TARGET * 100} % of bare: ${(masterRatio * 100).toFixed(0)} %  ${verdict(masterRatio >= MASTER_DATA_RATIO_TARGET)}`,
  );
}

try {
  await main();
} catch (err) {
  console.error('benchmark failed:', err);
}
process.exit(0);
