import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A local S3-compatible server (s3rver, pure JavaScript) in a process of its own, on a free port of
 * 127.0.0.1, its objects in a temporary directory: the object store of the S3 tests
 * (docs/decisions/042-shared-document-storage.md). Its own process, so that the tests' memory figures
 * are the portal's, not the server's.
 */
export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The environment of an API process that keeps its documents here. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Any signature is accepted; the keys are s3rver's own defaults. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const CHILD = `
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(1);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run()
  .then(({ port }) => process.stdout.write(JSON.stringify({ port }) + '\\n'));
`;

export async function startS3Server(bucket = 'bd-documents'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'bd-s3rver-'));
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD, directory, bucket], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${output}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /\{"port":(\d+)\}/.exec(output);
      if (line) {
        clearTimeout(timer);
        resolve(Number(line[1]));
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code}): ${output}`));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    endpoint,
    bucket,
    env: {
      DOCUMENT_STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
