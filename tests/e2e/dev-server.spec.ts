import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { API_MOUNTS } from '../../api/http/mounts';
import { seedSession } from './support';

/**
 * `npm run dev` as a developer runs it (README, docs/operations.md): Vite with the API behind its proxy,
 * on embedded PGlite in a directory of this run, on free ports (never the browser tests' server's).
 * The Stately inspector needs the internet to show anything; here its site is a stand-in page that
 * answers the inspector's handshake and keeps what it is sent.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const INSPECTOR_URL = 'https://stately.ai/inspect';

test.describe.configure({ mode: 'serial' });

let dev: ChildProcess | undefined;
let dataDir: string | undefined;
let appUrl = '';
let ports: number[] = [];
const output: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** The last lines the dev server printed, for a failure's message. */
const lastOutput = () => output.slice(-40).join('');

const exited = (child: ChildProcess | undefined) =>
  !child || child.exitCode !== null || child.signalCode !== null;

/** Until `url` answers 200 (or npm run dev exits, or the time is up). */
async function waitFor(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (exited(dev)) throw new Error(`npm run dev exited:\n${lastOutput()}`);
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`npm run dev did not serve ${url} in time:\n${lastOutput()}`);
}

/** SIGTERM to npm's process group; scripts/dev.ts then stops its children (their own groups) and exits. */
async function stopDev(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || exited(child)) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 15_000);
  await gone;
  clearTimeout(timer);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const appPort = await freePort();
  let apiPort = await freePort();
  while (apiPort === appPort) apiPort = await freePort();
  ports = [appPort, apiPort];
  appUrl = `http://localhost:${appPort}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'bd-dev-server-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(appPort),
    API_PORT: String(apiPort),
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
  };
  // Embedded PGlite, as on a developer's machine without Postgres (CI sets DATABASE_URL for the rest).
  delete env.DATABASE_URL;
  dev = spawn('npm', ['run', 'dev'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [dev.stdout, dev.stderr])
    stream?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.length > 200) output.shift();
    });
  // The API first (asking through Vite before it listens fills Vite's log with proxy errors), then
  // the same through Vite's proxy.
  const deadline = Date.now() + 150_000;
  await waitFor(`http://127.0.0.1:${apiPort}/api/health`, deadline);
  await waitFor(`${appUrl}/api/health`, deadline);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  if (dev) await stopDev(dev);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const open = [];
  for (const port of ports) if (await isListening(port)) open.push(port);
  expect(open, `ports still open after npm run dev stopped:\n${lastOutput()}`).toEqual([]);
});

/**
 * Scripts and styles of the page refused with a 4xx: the app's own modules in ui/api/ were, answered by
 * the API's 404. (Not 504: Vite's answer to a module of an outdated dependency cache, before it reloads.)
 */
function refusedAssets(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const status = response.status();
    if ((type === 'script' || type === 'stylesheet') && status >= 400 && status < 500)
      refused.push(`${status} ${response.url()}`);
  });
  return refused;
}

test.describe('npm run dev', () => {
  test('serves the home page with its heading, every module of the app loaded', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    const refused = refusedAssets(page);

    await page.goto(`${appUrl}/`);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Building safety certificates for schools and child care centres',
      { timeout: 60_000 },
    );
    expect(refused).toEqual([]);
  });

  test("sends every path of the API to the API, and leaves the UI's clients in ui/api/ to Vite", async ({
    request,
  }) => {
    // Answered by the API: it gives every answer a request id (api/app.ts), Vite gives none.
    for (const mount of API_MOUNTS) {
      const response = await request.get(`${appUrl}/api/${mount}/no-such-path`);
      expect(response.headers()['x-request-id'], `/api/${mount}/no-such-path`).toBeTruthy();
      expect(response.headers()['content-type'], `/api/${mount}/no-such-path`).toMatch(/^application\/json/);
    }
    const health = await request.get(`${appUrl}/api/health`);
    expect(health.status()).toBe(200);

    const clients = readdirSync(path.join(root, 'ui/api')).filter((f) => /\.tsx?$/.test(f));
    expect(clients).toContain('index.ts');
    for (const file of clients) {
      const response = await request.get(`${appUrl}/api/${file}`);
      expect(response.status(), `/api/${file}`).toBe(200);
      expect(response.headers()['content-type'], `/api/${file}`).toMatch(/javascript/);
    }
  });

  test('shows a one-time password in the development outbox, as the README says', async ({ page }) => {
    const sent = await page.request.post(`${appUrl}/api/auth/otp/send`, {
      data: { applicationNo: 'A2-2026-000123', contact: 'applicant.a2@example.hk' },
    });
    expect(sent.status()).toBe(200);
    await seedSession(page, { language: 'en' });

    await page.goto(`${appUrl}/dev/outbox`);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Development outbox', {
      timeout: 60_000,
    });
    const row = page.getByRole('row').filter({ hasText: 'applicant.a2@example.hk' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(row.first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
  });

  test("with ?inspect, opens the Stately inspector and shows it the page's flow", async ({
    page,
    context,
  }) => {
    // A stand-in for the inspector's site: it says it is connected, as the real one does, and keeps
    // the names of the actors it is told about.
    await context.route(`${INSPECTOR_URL}**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Stately inspector (stand-in)</title><script>
          window.actors = [];
          addEventListener('message', (e) => {
            if (e.data && e.data.type === '@xstate.actor') window.actors.push(e.data.name);
          });
          window.opener.postMessage({ type: '@statelyai.connected' }, '*');
        </script>`,
      }),
    );
    await seedSession(page, { language: 'en' });
    const popup = page.waitForEvent('popup', { timeout: 60_000 });

    await page.goto(`${appUrl}/find-my-case?inspect`);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find my case', { timeout: 60_000 });
    const inspector = await popup;
    await expect(inspector).toHaveURL(INSPECTOR_URL);
    // Find my case runs the one-time password login's machine.
    await expect(async () => {
      const actors = await inspector.evaluate(() => (window as unknown as { actors: string[] }).actors);
      expect(actors).toContain('loginOtp');
    }).toPass({ timeout: 15_000 });
  });
});
