import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DocumentStorage, createLocalStorage } from '../../api/adapters/storage';
import { checkPdf } from '../../api/modules/shared/uploads/pdf-check';
import {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_TOTAL_BYTES,
  type ReceivedFile,
  UploadError,
  readAll,
  receivePdfUpload,
} from '../../api/modules/shared/uploads/upload-receiver';
import { type PdfBytes, landscapeA4 } from '../support/pdf-corpus';

const KIB = 1024;
const MIB = 1024 * KIB;

/** What the server saw for one request, recorded when `receivePdfUpload` settled. */
interface Outcome {
  result: { ok: true; file: ReceivedFile } | { ok: false; error: unknown };
  /** Body bytes that had passed the counting stream in front of the receiver. */
  bodyBytesRead: number;
  /** Bytes the server had read from the TCP socket (headers included). */
  socketBytesRead: number;
  /** The socket's count a moment after the answer: it must not keep draining the body. */
  socketBytesReadLater: Promise<number>;
}

let root: string;
let storageDir: string;
let storage: DocumentStorage;
let limits = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, remainingBytes: DEFAULT_MAX_TOTAL_BYTES };
let server: Server;
let url: string;
const waiting: ((outcome: Outcome) => void)[] = [];

function counting(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let bodyBytesRead = 0;
    const body = Object.assign(req.pipe(counting((n) => (bodyBytesRead += n))), { headers: req.headers });
    void receivePdfUpload(body, { ...limits, storage })
      .then(
        (file): Outcome['result'] => ({ ok: true, file }),
        (error: unknown): Outcome['result'] => ({ ok: false, error }),
      )
      .then((result) => {
        const socket = req.socket;
        waiting.shift()?.({
          result,
          bodyBytesRead,
          socketBytesRead: socket.bytesRead,
          socketBytesReadLater: sleep(300).then(() => socket.bytesRead),
        });
        if (result.ok) {
          res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(result.file));
        } else {
          // The rest of a refused body is still on the wire: answer and hang up rather than read it.
          const status = result.error instanceof UploadError && result.error.kind === 'too-large' ? 413 : 400;
          res.writeHead(status, { connection: 'close' }).end();
        }
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'bd-upload-'));
  storageDir = join(root, 'documents');
  storage = createLocalStorage(storageDir);
  limits = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, remainingBytes: DEFAULT_MAX_TOTAL_BYTES };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Sends a request and waits for both the server's outcome and the client's end of it. */
async function send(
  body: FormData | string,
  headers: Record<string, string> = {},
): Promise<{ outcome: Outcome; status: number | 'connection closed' }> {
  const outcome = new Promise<Outcome>((resolve) => waiting.push(resolve));
  const status = fetch(url, { method: 'POST', body, headers }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    // The server may hang up while the client is still sending; what counts is the server's outcome.
    () => 'connection closed' as const,
  );
  return { outcome: await outcome, status: await status };
}

function formWith(files: { field?: string; bytes: PdfBytes; name: string }[], fields = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const file of files) form.append(file.field ?? 'file', new Blob([file.bytes]), file.name);
  return form;
}

const storedNames = async (): Promise<string[]> => readdir(storageDir).catch(() => []);

function errorOf(outcome: Outcome): unknown {
  expect(outcome.result.ok).toBe(false);
  return outcome.result.ok ? undefined : outcome.result.error;
}

describe('receivePdfUpload', () => {
  it('stores a small file with its SHA-256, size, name and text fields', async () => {
    const pdf = await landscapeA4();

    const { outcome, status } = await send(
      formWith([{ bytes: pdf, name: 'plan.pdf' }], { documentType: 'structural-plan' }),
    );

    expect(status).toBe(201);
    expect(outcome.result.ok).toBe(true);
    if (!outcome.result.ok) return;
    const { file } = outcome.result;
    expect(file).toEqual({
      storageKey: expect.stringMatching(/^[0-9a-f]{32}\.pdf$/) as string,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      bytes: pdf.length,
      originalName: 'plan.pdf',
      fields: { documentType: 'structural-plan' },
    });
    expect(await storedNames()).toEqual([file.storageKey]);
    const stored = await readAll(storage, file.storageKey);
    expect(Buffer.from(stored).equals(Buffer.from(pdf))).toBe(true);
    expect(await checkPdf(stored)).toMatchObject({ ok: true });
  });

  it('accepts a file of exactly the limit', async () => {
    limits = { maxFileBytes: 64 * KIB, remainingBytes: DEFAULT_MAX_TOTAL_BYTES };
    const { outcome } = await send(formWith([{ bytes: new Uint8Array(64 * KIB), name: 'a.pdf' }]));
    expect(outcome.result).toMatchObject({ ok: true, file: { bytes: 64 * KIB } });
  });

  it('refuses a file one byte over the file limit as too-large file, leaving no file', async () => {
    limits = { maxFileBytes: 64 * KIB, remainingBytes: DEFAULT_MAX_TOTAL_BYTES };
    const { outcome, status } = await send(
      formWith([{ bytes: new Uint8Array(64 * KIB + 1), name: 'a.pdf' }]),
    );
    expect(errorOf(outcome)).toMatchObject({ kind: 'too-large', limit: 'file', limitBytes: 64 * KIB });
    expect(status).toBe(413);
    expect(await storedNames()).toEqual([]);
  });

  it('refuses a file over what is left of the total as too-large total, leaving no file', async () => {
    limits = { maxFileBytes: 10 * MIB, remainingBytes: 100 * KIB };
    const { outcome } = await send(formWith([{ bytes: new Uint8Array(200 * KIB), name: 'a.pdf' }]));
    expect(errorOf(outcome)).toMatchObject({ kind: 'too-large', limit: 'total', limitBytes: 100 * KIB });
    expect(await storedNames()).toEqual([]);
  });

  it('refuses any file once nothing of the total is left', async () => {
    limits = { maxFileBytes: 10 * MIB, remainingBytes: 0 };
    const { outcome } = await send(formWith([{ bytes: new Uint8Array(10), name: 'a.pdf' }]));
    expect(errorOf(outcome)).toMatchObject({ kind: 'too-large', limit: 'total' });
    expect(await storedNames()).toEqual([]);
  });

  it('stops reading a 30 MB upload soon after its 1 MB limit, while the client is still sending', async () => {
    limits = { maxFileBytes: 1 * MIB, remainingBytes: DEFAULT_MAX_TOTAL_BYTES };
    const huge = new Uint8Array(30 * MIB);

    const { outcome } = await send(formWith([{ bytes: huge, name: 'huge.pdf' }]));

    expect(errorOf(outcome)).toBeInstanceOf(UploadError);
    expect(errorOf(outcome)).toMatchObject({ kind: 'too-large', limit: 'file' });
    console.log(
      `30 MB upload, 1 MB limit: refused after ${outcome.bodyBytesRead} body bytes ` +
        `(${outcome.socketBytesRead} from the socket, ${await outcome.socketBytesReadLater} 300 ms later)`,
    );
    expect(outcome.bodyBytesRead).toBeGreaterThan(1 * MIB);
    expect(outcome.bodyBytesRead).toBeLessThan(2 * MIB);
    expect(outcome.socketBytesRead).toBeLessThan(3 * MIB);
    expect(await outcome.socketBytesReadLater).toBeLessThan(3 * MIB);
    expect(await storedNames()).toEqual([]);
  });

  it('answers no-file for a form without a file', async () => {
    const { outcome } = await send(formWith([], { documentType: 'structural-plan' }));
    expect(errorOf(outcome)).toMatchObject({ kind: 'no-file' });
  });

  it('answers no-file for the empty part a browser sends for an empty file input', async () => {
    const { outcome } = await send(formWith([{ bytes: new Uint8Array(0), name: '' }]));
    expect(errorOf(outcome)).toMatchObject({ kind: 'no-file' });
    expect(await storedNames()).toEqual([]);
  });

  it('refuses two files as too-many-files, keeping neither', async () => {
    const pdf = await landscapeA4();
    const { outcome } = await send(
      formWith([
        { bytes: pdf, name: 'one.pdf' },
        { bytes: pdf, name: 'two.pdf' },
      ]),
    );
    expect(errorOf(outcome)).toMatchObject({ kind: 'too-many-files' });
    expect(await storedNames()).toEqual([]);
  });

  it.each([
    ['JSON', '{"file":"JVBERi0="}', 'application/json'],
    ['a urlencoded form', 'file=JVBERi0%3D', 'application/x-www-form-urlencoded'],
    ['multipart without a boundary', '--x\r\n\r\n--x--\r\n', 'multipart/form-data'],
  ])('refuses %s as bad-multipart', async (_name, body, contentType) => {
    const { outcome, status } = await send(body, { 'content-type': contentType });
    expect(errorOf(outcome)).toMatchObject({ kind: 'bad-multipart' });
    expect(status).toBe(400);
  });

  it('refuses a multipart body cut short as bad-multipart, keeping nothing of it', async () => {
    const body =
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n' +
      'Content-Type: application/pdf\r\n\r\n%PDF-1.7 and then the connection';
    const { outcome } = await send(body, { 'content-type': 'multipart/form-data; boundary=b' });
    expect(errorOf(outcome)).toMatchObject({ kind: 'bad-multipart' });
    expect(await storedNames()).toEqual([]);
  });

  it('refuses a file sent in another field as bad-multipart', async () => {
    const { outcome } = await send(
      formWith([{ field: 'attachment', bytes: await landscapeA4(), name: 'a.pdf' }]),
    );
    expect(errorOf(outcome)).toMatchObject({ kind: 'bad-multipart' });
    expect(await storedNames()).toEqual([]);
  });
});
