/**
 * `npm run dev`: the API with reload (tsx watch, port API_PORT, default 3001) and Vite's dev server
 * (port PORT, default 3000, which proxies the API's paths to API_PORT: vite.config.ts). Both children
 * stop when this process stops or when either of them exits (docs/operations.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const bin = (name: string) =>
  path.resolve('node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const API_PORT = process.env.API_PORT || '3001';
// Where a person opens the portal, as under `npm start`.
const APP_PORT = process.env.PORT || '3000';

const children: ChildProcess[] = [];
let stopping = false;

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  // detached: each child leads its own process group, so that a forced stop reaches its grandchildren
  // too (tsx watch runs the server in a child of its own).
  const child = spawn(command, args, {
    stdio: 'inherit',
    env: { ...process.env, ...env },
    detached: process.platform !== 'win32',
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.log(`[dev] ${name} exited (${signal ?? code}); stopping the others`);
    stop(code ?? 1);
  });
  children.push(child);
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    // SIGTERM to the child alone: tsx watch passes it on to the server and waits for it to close the
    // database. Sent to the whole group, the server would get it twice and exit at once (a second signal
    // means "now": api/server.ts). SIGKILL to the whole group, so that nothing is left behind.
    else process.kill(signal === 'SIGKILL' ? -child.pid : child.pid, signal);
  } catch {
    // already gone
  }
}

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) kill(child, 'SIGTERM');
  const force = setTimeout(() => {
    for (const child of children) kill(child, 'SIGKILL');
    process.exit(code);
  }, 5_000);
  force.unref();
  void Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((resolve) => child.once('exit', resolve)),
    ),
  ).then(() => process.exit(code));
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
process.on('exit', () => {
  for (const child of children) kill(child, 'SIGKILL');
});

start('api', bin('tsx'), ['watch', '--clear-screen=false', 'api/server.ts'], {
  PORT: API_PORT,
  HOST: process.env.HOST || '127.0.0.1',
  // Development: the outbox and the iAM Smart sandbox's phone, unless DEV_TOOLS says otherwise.
  DEV_TOOLS: process.env.DEV_TOOLS ?? '1',
});
start('vite', bin('vite'), ['--port', APP_PORT, '--strictPort'], { API_PORT });
console.log(`[dev] API on http://localhost:${API_PORT}, app on http://localhost:${APP_PORT}`);
