import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** An API server in a process of its own (`node --import tsx api/server.ts`), to be stopped or killed. */
export interface ApiProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** What the process wrote (pino's JSON lines and anything else), for a failing test's message. */
  output(): string;
  /** `kill -9`: no shutdown, no finishing of anything. Resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts `api/server.ts` on `port` with `env` added to this process's environment (DATABASE_URL,
 * OTP_SECRET, SMTP_URL, ...) and waits until /api/health answers (or the process exits: then it throws
 * with its output).
 */
export async function startApiProcess(port: number, env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      // The iAM Smart sandbox's phone (/api/dev/iamsmart) plays the signer's part.
      DEV_TOOLS: '1',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`api/server.ts exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`api/server.ts did not answer on ${port} within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    pid: child.pid ?? 0,
    child,
    output: () => output,
    async crash() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
