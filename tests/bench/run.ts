/**
 * `npm run bench` (after `vite build`): first-load weight of the built SPA and API throughput.
 * Reports only; it always exits 0. Timings live here, never in pass/fail tests.
 *
 * Env: BENCH_SECONDS (default 10) per run, BENCH_CONNECTIONS (default 50), BENCH_DATABASE_URL (unset:
 *      in-memory PGlite; set: a fresh database on that Postgres server, dropped afterwards),
 *      BENCH_WORKERS (default 1: autocannon runs in a worker thread so the load generator does not share
 *      the server's event loop; 0 runs it on the main thread).
 *
 * Draft saves (PUT /api/drafts/:applicationNo): one draft per connection, created before the run; every
 * request is a real save of a 10 KB answers body with the version the server expects (the connection
 * keeps the version each 200 answers), so each one is a conditional UPDATE that succeeds. A 409 would
 * count as an error. This run uses one worker thread whatever BENCH_WORKERS says (above 0), because the
 * drafts are handed out to connections by a counter inside the worker.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import express, { type Express } from 'express';
import { pino } from 'pino';
import { createApp, jobsOf } from '../../api/app';
import { createIamSmartSandbox } from '../../api/adapters/iamsmart';
import { createLocalStorage } from '../../api/adapters/storage';
import { DEFAULT_RATE_LIMITS, type RateLimitOptions } from '../../api/http/rate-limit';
import { benchSubmissions, benchUpload, UPLOAD_MEDIAN_TARGET_MS } from './documents';
import { benchPages } from './pages';
import { openDatabase } from '../../drizzle/db';
import { seed } from '../../drizzle/seed';
import { type FreshDatabase, createTestDatabaseUrl } from '../support/fresh-postgres';

const DIST = path.resolve('dist');
const FIRST_LOAD_JS_TARGET_KB = 100;
const MASTER_DATA_RATIO_TARGET = 0.5;
const DRAFT_SAVE_RATIO_TARGET = 0.25;
const DRAFT_ANSWERS_BYTES = 10 * 1024;
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

/** About `bytes` of answers as a form would hold them: 40 text fields of a few hundred characters. */
function draftAnswers(bytes: number): Record<string, string> {
  const answers: Record<string, string> = {};
  const fields = 40;
  const filler = 'Unit 1201, 12/F, Focal Industrial Centre, 21 Man Lok Street, Hung Hom, Kowloon. ';
  for (let i = 0; i < fields; i++) answers[`field${i}`] = '';
  const overhead = JSON.stringify(answers).length;
  const each = Math.floor((bytes - overhead) / fields);
  for (let i = 0; i < fields; i++)
    answers[`field${i}`] = filler.repeat(Math.ceil(each / filler.length)).slice(0, each);
  return answers;
}

/**
 * The autocannon hooks of the draft-save run, as a CommonJS module (autocannon's worker thread loads
 * hooks by path): each connection takes its own draft and sends the version its last 200 answered.
 */
function writeDraftHooks(
  dir: string,
  drafts: { applicationNo: string; token: string }[],
  answersJson: string,
) {
  const setup = path.join(dir, 'draft-setup.cjs');
  const onResponse = path.join(dir, 'draft-response.cjs');
  writeFileSync(
    setup,
    `'use strict';
const drafts = ${JSON.stringify(drafts)};
const answers = ${JSON.stringify(answersJson)};
let next = 0;
// req.state is the connection's own object (autocannon copies the request definitions per connection and
// passes a shallow copy here); the context lives for one request, so it carries state to onResponse.
module.exports = function setupRequest(req, context) {
  const state = req.state;
  if (!state.draft) { state.draft = drafts[next++ % drafts.length]; state.version = 1; }
  context.state = state;
  return {
    ...req,
    method: 'PUT',
    path: '/api/drafts/' + state.draft.applicationNo,
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + state.draft.token },
    body: '{"version":' + state.version + ',"step":1,"answers":' + answers + '}',
  };
};
`,
  );
  writeFileSync(
    onResponse,
    `'use strict';
module.exports = function onResponse(status, body, context) {
  try {
    const data = JSON.parse(body).data;
    if (status === 200) context.state.version = data.version;
    else if (status === 409) context.state.version = data.currentVersion;
  } catch {}
};
`,
  );
  return { setup, onResponse };
}

async function loadDraftSaves(portalUrl: string): Promise<Run & { bodyKb: number }> {
  const name = 'PUT /api/drafts/:no (10 KB, versioned)';
  const answers = draftAnswers(DRAFT_ANSWERS_BYTES);
  const drafts: { applicationNo: string; token: string }[] = [];
  for (let i = 0; i < connections; i++) {
    const res = await fetch(`${portalUrl}/api/drafts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ formKey: 'a2', answers, step: 1 }),
    });
    const { data } = (await res.json()) as { data: { applicationNo: string; token: string } };
    drafts.push({ applicationNo: data.applicationNo, token: data.token });
  }
  const answersJson = JSON.stringify(answers);
  const dir = mkdtempSync(path.join(tmpdir(), 'bd-bench-'));
  try {
    const hooks = writeDraftHooks(dir, drafts, answersJson);
    const require = createRequire(import.meta.url);
    // Copied for each connection by autocannon: the connection's draft and version (see the hooks).
    const perConnection = { state: {} } as object;
    process.stdout.write(`  ${name} ... `);
    const result = await autocannon({
      url: portalUrl,
      connections,
      duration: seconds,
      ...(workers > 0
        ? {
            workers: 1,
            requests: [{ ...perConnection, setupRequest: hooks.setup, onResponse: hooks.onResponse }],
          }
        : {
            requests: [
              {
                ...perConnection,
                setupRequest: require(hooks.setup) as (
                  request: autocannon.Request,
                  context: object,
                ) => autocannon.Request,
                onResponse: require(hooks.onResponse) as (
                  status: number,
                  body: string,
                  context: object,
                ) => void,
              },
            ],
          }),
    });
    const errors = result.errors + result.timeouts + result.non2xx;
    console.log(`${Math.round(result.requests.average)} rps`);
    const bodyBytes = Buffer.byteLength(`{"version":1,"step":1,"answers":${answersJson}}`);
    return { name, rps: result.requests.average, p99: result.latency.p99, errors, bodyKb: bodyBytes / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

  // BENCH_DATABASE_URL: a Postgres server to run on (a fresh database bd_bench_… is made and dropped).
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const fresh: FreshDatabase | undefined = serverUrl
    ? await createTestDatabaseUrl(serverUrl, 'bd_bench')
    : undefined;
  const where = fresh ? `Postgres (${fresh.name})` : 'in-memory PGlite';
  console.log(`\n== API throughput (${connections} connections, ${seconds} s each, ${where}) ==`);
  const database = await openDatabase({ url: fresh?.url ?? '' });
  await seed(database.db);
  const documentsDir = mkdtempSync(path.join(tmpdir(), 'bd-bench-documents-'));
  const sandbox = createIamSmartSandbox({ now: () => Date.now() });
  // The bench is one address standing for the thousands of people a portal serves: every limit keeps its
  // window and runs on every request (its cost is measured), with 10,000 times the points, so the draft
  // saves do not use up the drafts the documents part then needs (docs/performance.md).
  const benchLimits = Object.fromEntries(
    Object.entries(DEFAULT_RATE_LIMITS).map(([name, limit]) => [
      name,
      { ...limit, points: limit.points * 10_000 },
    ]),
  ) as RateLimitOptions;
  const portalApp = createApp({
    db: database,
    logger: pino({ level: 'silent' }),
    rateLimits: benchLimits,
    documents: { storage: createLocalStorage(documentsDir) },
    signing: { iamSmart: sandbox },
  });
  const portal = await listen(portalApp);
  const bareApp = express();
  bareApp.use(express.json());
  bareApp.post('/bare', (_req, res) => {
    res.json({ ok: true });
  });
  const bare = await listen(bareApp);

  const runs: Run[] = [];
  let uploads: { medianMs: number; p90Ms: number } | undefined;
  let submissions: { perSecond: number; medianMs: number; errors: number } | undefined;
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
    runs.push(await loadDraftSaves(portal.url));
    console.log('\n== Documents and submission ==');
    process.stdout.write('  upload of a 10 MB, 20-page PDF ... ');
    uploads = await benchUpload(portal.url);
    console.log(`median ${uploads.medianMs.toFixed(0)} ms, p90 ${uploads.p90Ms.toFixed(0)} ms`);
    process.stdout.write('  submissions of ready applications ... ');
    submissions = await benchSubmissions(portal.url, database.db, sandbox);
    console.log(
      `${submissions.perSecond.toFixed(1)} per second (median ${submissions.medianMs.toFixed(0)} ms, ${submissions.errors} errors)`,
    );
  } finally {
    portal.server.closeAllConnections();
    bare.server.closeAllConnections();
    await new Promise((r) => portal.server.close(r));
    await new Promise((r) => bare.server.close(r));
    // The acknowledgements the submissions queued (the job queue started with the first one).
    await jobsOf(portalApp).stop(1_000);
    await database.close();
    await fresh?.drop();
    rmSync(documentsDir, { recursive: true, force: true });
  }

  const bareRps = runs[0]?.rps ?? 0;
  console.log('\n| endpoint | req/s | p99 ms | vs bare | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const run of runs) {
    const ratio = bareRps > 0 ? `${((run.rps / bareRps) * 100).toFixed(0)} %` : 'n/a';
    console.log(`| ${run.name} | ${Math.round(run.rps)} | ${run.p99} | ${ratio} | ${run.errors} |`);
  }

  const masterRatio = bareRps > 0 ? (runs[1]?.rps ?? 0) / bareRps : 0;
  const draftRun = runs[3];
  const draftRatio = bareRps > 0 ? (draftRun?.rps ?? 0) / bareRps : 0;
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
  console.log(
    `  draft save (10 KB) >= ${DRAFT_SAVE_RATIO_TARGET * 100} % of bare: ${(draftRatio * 100).toFixed(0)} % (${Math.round(draftRun?.rps ?? 0)} rps, p99 ${draftRun?.p99 ?? 'n/a'} ms, ${draftRun?.errors ?? 0} errors)  ${verdict(draftRatio >= DRAFT_SAVE_RATIO_TARGET && draftRun?.errors === 0)}`,
  );
  console.log(
    `  10 MB, 20-page PDF accepted in <= ${UPLOAD_MEDIAN_TARGET_MS} ms (median): ${uploads ? `${uploads.medianMs.toFixed(0)} ms  ${verdict(uploads.medianMs <= UPLOAD_MEDIAN_TARGET_MS)}` : 'not measured'}`,
  );
  console.log(
    `  submissions per second (reported, no target): ${submissions ? `${submissions.perSecond.toFixed(1)} (${submissions.errors} errors)` : 'not measured'}`,
  );
  if (!fresh)
    console.log(
      '    (in-memory PGlite answers inside the server’s own thread, so every query costs the server CPU and even\n' +
        '     GET /api/health stays near 20 %; BENCH_DATABASE_URL=postgres://… measures the production shape)',
    );
}

// `npm run bench` runs both parts; `npm run bench -- pages` or `-- api` runs one of them.
const only = process.argv[2];
try {
  if (only !== 'api') await benchPages();
  if (only !== 'pages') await main();
} catch (err) {
  console.error('benchmark failed:', err);
}
process.exit(0);
