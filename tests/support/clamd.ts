import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The EICAR anti-virus test file: harmless, and recognised as a virus by every scanner. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

export interface Clamd {
  host: string;
  port: number;
  stop(): Promise<void>;
}

/** Whether something answers clamd's PING on the port. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    socket.on('close', () => resolve(answer.startsWith('PONG')));
    socket.on('error', () => resolve(false));
  });
}

/**
 * A real ClamAV daemon (Debian's clamav-daemon) on 127.0.0.1:`port`, with its own configuration and a
 * signature database made here: one body signature (.ndb) for the EICAR test string, anywhere in any
 * file. No freshclam, no internet. Resolves once it answers PING (about 2 to 5 s).
 */
export async function startClamd(port: number): Promise<Clamd> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bd-clamd-'));
  writeFileSync(
    path.join(dir, 'portal-test.ndb'),
    `Portal-Test.EICAR:0:*:${Buffer.from(EICAR).toString('hex')}\n`,
  );
  writeFileSync(
    path.join(dir, 'clamd.conf'),
    [
      'Foreground yes',
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `DatabaseDirectory ${dir}`,
      `PidFile ${path.join(dir, 'clamd.pid')}`,
      `LogFile ${path.join(dir, 'clamd.log')}`,
      'StreamMaxLength 60M',
      '',
    ].join('\n'),
  );
  const clamd = process.env.CLAMD_PATH ?? '/usr/sbin/clamd';
  const child: ChildProcess = spawn(clamd, ['-c', path.join(dir, 'clamd.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const until = Date.now() + 60_000;
  while (!(await pong(port))) {
    if (child.exitCode !== null) throw new Error(`clamd exited: ${output}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`clamd did not answer within 60 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    host: '127.0.0.1',
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
