/**
 * The README's first command, `npm start`, as a newcomer runs it on a built tree: the launcher
 * (scripts/launch.mjs) bundles the server and starts it on embedded PGlite with the demo data. This
 * checks what that person gets: the health check, a prerendered page, and the demo's Find my case login
 * with the one-time password read from the development outbox, ending on the demo case.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../support/http';

const root = path.resolve(import.meta.dirname, '../..');
const port = 3000 + 900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
let child: ChildProcess | undefined;
let dataDir = '';
let output = '';

async function waitForHealth(deadlineMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (child?.exitCode !== null) throw new Error(`npm start exited (${child?.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > deadlineMs) throw new Error(`no /api/health answer:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm start (scripts/launch.mjs) on PGlite with the demo data', () => {
  beforeAll(async () => {
    expect(existsSync(path.join(root, 'dist', 'index.html')), 'run npm run build first').toBe(true);
    dataDir = mkdtempSync(path.join(tmpdir(), 'bd-start-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    };
    delete env.DATABASE_URL;
    delete env.NODE_ENV;
    delete env.DEV_TOOLS;
    child = spawn(process.execPath, ['scripts/launch.mjs'], { cwd: root, env, stdio: 'pipe' });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForHealth(60_000);
  }, 70_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says where it runs and serves the prerendered home page', async () => {
    expect(output).toContain(`Portal running at http://127.0.0.1:${port}`);
    const res = await fetch(`${base}/`, { headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain('Buildings Department');
  });

  it('logs in to the demo case with a one-time password from the development outbox', async () => {
    const login = { applicationNo: 'A2-2026-000123', contact: 'applicant.a2@example.hk' };
    const sent = await postJson(`${base}/api/auth/otp/send`, { ...login, lang: 'en' });
    expect(sent.status).toBe(200);
    // The message is a job of the queue: it reaches the outbox a moment after the answer.
    let message: { to: string; body: string } | undefined;
    for (let tries = 0; !message && tries < 100; tries++) {
      if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const outbox = await getJson<{ to: string; body: string }[]>(`${base}/api/dev/outbox`);
      message = outbox.body.data.find((m) => m.to === login.contact);
    }
    // The code stands on a line of its own (the application number also holds six digits).
    const code = /^(\d{6})$/m.exec(message?.body ?? '')?.[1];
    expect(code, 'a six-digit code in the demo outbox').toBeDefined();
    const verified = await postJson<{ token: string }>(`${base}/api/auth/otp/verify`, { ...login, code });
    expect(verified.status).toBe(200);
    const current = await getJson<{ applicationNo: string; status: string }>(`${base}/api/cases/current`, {
      authorization: `Bearer ${verified.body.data.token}`,
    });
    expect(current.status).toBe(200);
    expect(current.body.data.applicationNo).toBe('A2-2026-000123');
  });
});
