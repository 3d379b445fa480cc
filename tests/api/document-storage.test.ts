import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentStorageFromEnv } from '../../api/adapters/document-storage';
import { createS3Storage, s3Client } from '../../api/adapters/s3-storage';
import { type DocumentStorage, newStorageKey, StorageError } from '../../api/adapters/storage';
import { ConfigError } from '../../api/config';
import { S3RVER_CREDENTIALS, type S3Server, startS3Server } from '../support/s3-server';

/**
 * The contract of api/adapters/storage.ts's DocumentStorage, run against both backends: the local
 * directory and an S3 bucket (s3rver in a process of its own). Same answers from both: stream in, stream
 * out, delete (twice), missing keys, refused keys, a write cut off part way, and a 128 MB document that
 * goes through without being held in memory (docs/decisions/042-shared-document-storage.md).
 */
const MB = 1024 * 1024;
const DOCUMENT_MB = 128;
/** Half the document: a backend that held it whole would pass this (the control below). */
const MEMORY_BOUND = DOCUMENT_MB * MB * 0.5;
let s3: S3Server;
let dir: string;

beforeAll(async () => {
  s3 = await startS3Server();
  dir = await mkdtemp(path.join(tmpdir(), 'bd-storage-contract-'));
});

afterAll(async () => {
  await s3?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `total` bytes of a repeating random block, made as they are read (never all in memory). */
function generated(total: number, block = randomBytes(64 * 1024)): { source: Readable; sha256: string } {
  const hash = createHash('sha256');
  for (let sent = 0; sent < total; sent += block.length)
    hash.update(block.subarray(0, Math.min(block.length, total - sent)));
  function* chunks() {
    for (let sent = 0; sent < total; sent += block.length)
      yield block.subarray(0, Math.min(block.length, total - sent)); // the same memory each time
  }
  return { source: Readable.from(chunks(), { objectMode: false }), sha256: hash.digest('hex') };
}

async function hashOf(stream: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** The most the process's resident memory grew above where it was while `work` ran. */
async function peakGrowth(work: () => Promise<unknown>): Promise<number> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

const backends: [string, () => DocumentStorage][] = [
  ['local directory', () => documentStorageFromEnv(dir, {})],
  ['S3 bucket', () => documentStorageFromEnv('unused', s3.env)],
];

describe.each(backends)('document storage: %s', (_name, make) => {
  it('stores a stream, streams it back, tells its size and lists it', async () => {
    const storage = make();
    const key = newStorageKey();
    const { source, sha256 } = generated(300_000);
    await storage.put(key, source);
    expect(await hashOf(storage.get(key))).toEqual({ sha256, bytes: 300_000 });
    expect(await storage.size(key)).toBe(300_000);
    const bytes = new Uint8Array(randomBytes(1000));
    const small = newStorageKey();
    await storage.put(small, bytes);
    expect(Buffer.concat(await storage.get(small).toArray())).toEqual(Buffer.from(bytes));
    const listed = (await storage.entries?.()) ?? [];
    expect(listed.filter((e) => [key, small].includes(e.name)).map((e) => e.kind)).toEqual(['file', 'file']);
  });

  it('deletes, and deleting again is not an error; a missing key is a clear not-found', async () => {
    const storage = make();
    const key = newStorageKey();
    await storage.put(key, new Uint8Array([1, 2, 3]));
    await storage.remove(key);
    await storage.remove(key);
    await expect(storage.size(key)).rejects.toMatchObject({ name: 'StorageError', kind: 'not-found', key });
    const read = storage.get(key).toArray();
    await expect(read).rejects.toBeInstanceOf(StorageError);
    await expect(read).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('refuses a key it did not make, before touching anything', async () => {
    const storage = make();
    expect(() => storage.get('../etc/passwd')).toThrow(StorageError);
    await expect(storage.put('a/b.pdf', new Uint8Array(1))).rejects.toMatchObject({ kind: 'bad-key' });
    await expect(storage.remove('x.pdf')).rejects.toMatchObject({ kind: 'bad-key' });
    await expect(storage.size('')).rejects.toMatchObject({ kind: 'bad-key' });
  });

  it('leaves nothing when the source fails part way, and rejects with its error', async () => {
    const storage = make();
    const key = newStorageKey();
    const failure = new Error('the upload was over its limit');
    const block = Buffer.alloc(256 * 1024, 1);
    const source = new Readable({ read() {} });
    const put = storage.put(key, source);
    for (let i = 0; i < 30; i++) source.push(block); // 7.5 MB: past one multipart part in S3
    await new Promise((resolve) => setTimeout(resolve, 300));
    source.destroy(failure);
    await expect(put).rejects.toBe(failure);
    await expect(storage.size(key)).rejects.toMatchObject({ kind: 'not-found' });
    expect(
      ((await storage.entries?.()) ?? []).filter((e) => e.name.startsWith(key) && e.kind === 'file'),
    ).toEqual([]);
  });

  // 128 MB, so that holding the document would show far above the collector's own slack (rss drifts
  // by 20 to 35 MB of garbage on a loaded machine, whatever the size).
  it('streams a 128 MB document in and out without holding it in memory', async () => {
    const storage = make();
    const key = newStorageKey();
    const { source, sha256 } = generated(DOCUMENT_MB * MB);
    const written = await peakGrowth(() => storage.put(key, source));
    let read = { sha256: '', bytes: 0 };
    const readGrowth = await peakGrowth(async () => (read = await hashOf(storage.get(key))));
    console.log(
      `${_name}: ${DOCUMENT_MB} MB put: rss grew at most ${(written / MB).toFixed(1)} MB; get: ${(readGrowth / MB).toFixed(1)} MB`,
    );
    expect(read).toEqual({ sha256, bytes: DOCUMENT_MB * MB });
    expect(written).toBeLessThan(MEMORY_BOUND);
    expect(readGrowth).toBeLessThan(MEMORY_BOUND);
    await storage.remove(key);
  }, 60_000);
});

it('the memory measure sees a write that holds the whole document (the control)', async () => {
  const local = documentStorageFromEnv(dir, {});
  const holding: DocumentStorage = {
    ...local,
    async put(key, source) {
      const chunks = source instanceof Uint8Array ? [source] : await source.toArray();
      await local.put(key, Buffer.concat(chunks as Uint8Array[]));
    },
  };
  const key = newStorageKey();
  const growth = await peakGrowth(() => holding.put(key, generated(DOCUMENT_MB * MB).source));
  console.log(`holding the document: rss grew ${(growth / MB).toFixed(1)} MB`);
  expect(growth).toBeGreaterThan(MEMORY_BOUND);
  await local.remove(key);
}, 60_000);

describe('S3 configuration', () => {
  it('asks the store for server-side encryption on every write when configured', async () => {
    const client = s3Client({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    const sent: { operation: string; sse: string | undefined; kms: string | undefined }[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const headers = (args.request as { headers: Record<string, string> }).headers;
        sent.push({
          operation: String(context.commandName),
          sse: headers['x-amz-server-side-encryption'],
          kms: headers['x-amz-server-side-encryption-aws-kms-key-id'],
        });
        return next(args);
      },
      { step: 'finalizeRequest' },
    );
    const storage = createS3Storage(
      {
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        serverSideEncryption: { algorithm: 'AES256' },
      },
      client,
    );
    await storage.put(newStorageKey(), new Uint8Array(10));
    await storage.put(newStorageKey(), generated(6 * MB).source);
    const writes = sent.filter((s) => /PutObject|CreateMultipartUpload/.test(s.operation));
    expect(writes.map((w) => w.operation)).toEqual(['PutObjectCommand', 'CreateMultipartUploadCommand']);
    expect(writes.every((w) => w.sse === 'AES256')).toBe(true);
    expect(sent.filter((s) => s.operation === 'UploadPartCommand')).toHaveLength(2);
  });

  it('refuses S3 settings that do not fit together, with one line each', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        documentStorageFromEnv('unused', env);
        return [];
      } catch (error) {
        return error instanceof ConfigError ? error.problems : ['not a ConfigError'];
      }
    };
    expect(problems({ DOCUMENT_STORAGE: 's3' })).toEqual([
      'S3_BUCKET must be set with DOCUMENT_STORAGE=s3 (the bucket the documents are kept in)',
    ]);
    expect(problems({ DOCUMENT_STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toHaveLength(1);
    expect(problems({ DOCUMENT_STORAGE: 'disk' })[0]).toMatch(/^DOCUMENT_STORAGE must be one of local, s3/);
    expect(problems({ DOCUMENT_STORAGE: 's3', S3_BUCKET: 'b', S3_SSE: 'des' })[0]).toMatch(/^S3_SSE must be/);
    expect(problems({ DOCUMENT_STORAGE: 's3', S3_BUCKET: 'b', S3_SSE_KMS_KEY_ID: 'k' })).toEqual([
      'S3_SSE_KMS_KEY_ID needs S3_SSE=aws:kms',
    ]);
    expect(problems({ DOCUMENT_STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://x' })[0]).toMatch(
      /^S3_ENDPOINT/,
    );
  });

  it('fails, rather than waits for ever, when the store accepts the connection and never answers', async () => {
    const silent = createServer(() => undefined).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const storage = createS3Storage({
      bucket: 'bd-documents',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      timeouts: { connectMs: 500, idleMs: 500 },
    });
    const started = performance.now();
    try {
      await expect(storage.size(newStorageKey())).rejects.toThrow();
      await expect(storage.get(newStorageKey()).toArray()).rejects.toThrow();
      // The SDK retries twice: three attempts of half a second each, and their back-off.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      silent.close();
    }
  }, 30_000);

  it('answers the health probe while the bucket is there, and fails it for a missing bucket', async () => {
    await expect(documentStorageFromEnv('unused', s3.env).probe?.()).resolves.toBeUndefined();
    await expect(
      documentStorageFromEnv('unused', { ...s3.env, S3_BUCKET: 'no-such-bucket' }).probe?.(),
    ).rejects.toThrow();
  });
});
