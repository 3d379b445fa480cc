import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real HAProxy (Debian's `haproxy`) in front of API processes, round-robin, with health checks, set up as
 * docs/operations.md documents it (the caller's X-Forwarded-For replaced by the address HAProxy saw).
 */
export interface Haproxy {
  url: string;
  /** Requests each server is handling right now (HAProxy's `scur`), by server name. */
  current(): Promise<Record<string, number>>;
  /** Requests each server has been sent in all (HAProxy's `stot`), by server name. */
  totals(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function startHaproxy(
  port: number,
  servers: { name: string; port: number }[],
): Promise<Haproxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bd-haproxy-'));
  const socket = path.join(dir, 'admin.sock');
  const config = `global
  stats socket ${socket} mode 600 level admin
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # A server that refuses the connection (its process died) is skipped for the next one.
  retries 2
  option redispatch
frontend portal
  bind 127.0.0.1:${port}
  # What a caller sends as X-Forwarded-For is dropped; the backend adds the address HAProxy saw, the one
  # value the app believes with TRUST_PROXY=1 (docs/operations.md, "Several machines").
  http-request del-header X-Forwarded-For
  default_backend api
backend api
  balance roundrobin
  option forwardfor
  option httpchk GET /api/health/ready
  http-check expect status 200
${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check inter 300 fall 1 rise 1`).join('\n')}
`;
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const command = (line: string) =>
    new Promise<string>((resolve, reject) => {
      const s = connect(socket);
      let answer = '';
      s.on('data', (c: Buffer) => (answer += c.toString()));
      s.on('end', () => resolve(answer));
      s.on('error', reject);
      s.write(`${line}\n`);
    });

  async function column(name: string): Promise<Record<string, number>> {
    const csv = await command('show stat');
    const [header, ...lines] = csv.split('\n').filter(Boolean);
    const columns = (header ?? '').replace(/^# /, '').split(',');
    const at = columns.indexOf(name);
    const out: Record<string, number> = {};
    for (const line of lines) {
      const cells = line.split(',');
      if (cells[0] === 'api' && cells[1] !== 'BACKEND') out[cells[1] ?? ''] = Number(cells[at] ?? 0);
    }
    return out;
  }

  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    const up = await column('status').catch(() => undefined);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (up && ok) break;
    if (Date.now() > until) throw new Error(`haproxy did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    current: () => column('scur'),
    totals: () => column('stot'),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
