import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DocumentStorage,
  StorageError,
  createLocalStorage,
  isStorageKey,
  newStorageKey,
} from '../../api/adapters/storage';
import { readAll } from '../../api/modules/shared/uploads/upload-receiver';

let dir: string;
let storage: DocumentStorage;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bd-storage-'));
  storage = createLocalStorage(join(dir, 'documents'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const storedNames = async (): Promise<string[]> => readdir(join(dir, 'documents')).catch(() => []);

describe('newStorageKey', () => {
  it('makes 32 lowercase hex characters and .pdf, different each time', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newStorageKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}\.pdf$/);
  });
});

describe('createLocalStorage', () => {
  it('stores bytes, streams them back, tells their size and removes them', async () => {
    const key = newStorageKey();
    const bytes = new TextEncoder().encode('%PDF-1.7 not really\n%%EOF\n');

    await storage.put(key, bytes);

    expect(await readAll(storage, key)).toEqual(Buffer.from(bytes));
    expect(await storage.size(key)).toBe(bytes.length);
    expect(await storedNames()).toEqual([key]);

    await storage.remove(key);
    expect(await storedNames()).toEqual([]);
  });

  it('stores a stream', async () => {
    const key = newStorageKey();
    await storage.put(key, Readable.from([Buffer.from('abc'), Buffer.from('def')]));
    expect(Buffer.from(await readAll(storage, key)).toString()).toBe('abcdef');
  });

  it('leaves nothing behind when the source stream fails part way', async () => {
    const key = newStorageKey();
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024));
        this.destroy(new Error('client went away'));
      },
    });

    await expect(storage.put(key, failing)).rejects.toThrow('client went away');
    expect(await storedNames()).toEqual([]);
  });

  it('treats removing a missing document as done', async () => {
    await expect(storage.remove(newStorageKey())).resolves.toBeUndefined();
  });

  it('answers not-found for the size of a missing document', async () => {
    await expect(storage.size(newStorageKey())).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('errors the stream with not-found for a missing document', async () => {
    await expect(readAll(storage, newStorageKey())).rejects.toMatchObject({ kind: 'not-found' });
  });

  describe('refuses keys it did not make', () => {
    const badKeys = [
      '../x',
      'a/b.pdf',
      '',
      `../${'a'.repeat(29)}.pdf`,
      `${'A'.repeat(32)}.pdf`,
      `${'a'.repeat(31)}.pdf`,
      `${'a'.repeat(32)}.PDF`,
      `${'a'.repeat(32)}.pdf.part`,
      `${'a'.repeat(32)}.pdf\0`,
      '/etc/passwd',
    ];

    it.each(badKeys)('%j in put, get, remove and size', async (key) => {
      expect(isStorageKey(key)).toBe(false);
      await expect(storage.put(key, new Uint8Array([1]))).rejects.toBeInstanceOf(StorageError);
      expect(() => storage.get(key)).toThrow(StorageError);
      await expect(storage.remove(key)).rejects.toMatchObject({ kind: 'bad-key' });
      await expect(storage.size(key)).rejects.toMatchObject({ kind: 'bad-key' });
      expect(await readdir(dir)).toEqual([]);
    });
  });
});
