import { randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';

/**
 * Where uploaded documents are kept. Keys are made by the server ({@link newStorageKey}), never taken
 * from the upload, so no file name the applicant chose ever reaches a path; the original name is
 * metadata for the database. Every method refuses a key not of that shape with a {@link StorageError}
 * `bad-key` (`get` throws, the others reject), so a bug upstream cannot become a path traversal.
 * Another backend (an object store) implements the same four methods.
 */
export interface DocumentStorage {
  /**
   * Stores the bytes under `key`. The document becomes visible under `key` only once complete: if the
   * source errors or is destroyed part way (an upload over its limit), nothing is left behind and the
   * promise rejects with the source's error.
   */
  put(key: string, source: Readable | Uint8Array): Promise<void>;
  /** Streams a stored document; the stream errors with a {@link StorageError} `not-found` if absent. */
  get(key: string): Readable;
  /** Deletes a document; removing one that is not there is not an error (retries are safe). */
  remove(key: string): Promise<void>;
  /** The stored size in bytes; rejects with a {@link StorageError} `not-found` if absent. */
  size(key: string): Promise<number>;
  /** Resolves when documents can be written here (health); rejects otherwise. */
  probe?(): Promise<void>;
  /** The stored files and the `.part` files of writes in flight or cut off (the sweep job). */
  entries?(): Promise<{ name: string; kind: 'file' | 'part'; modifiedAt: Date }[]>;
  /** Removes one of `entries()` by name (a file or a `.part`); a missing one is not an error. */
  removeEntry?(name: string): Promise<void>;
}

/** The only accepted key shape: 128 random bits in lowercase hex, and the extension. */
export const STORAGE_KEY_PATTERN = /^[0-9a-f]{32}\.pdf$/;
/** A write's temporary file: `<key>.<12 hex>.part`. */
const PART_PATTERN = /^[0-9a-f]{32}\.pdf\.[0-9a-f]{12}\.part$/;

/** A fresh key: 32 random hex characters + `.pdf`. Unguessable, so keys also work as capabilities. */
export function newStorageKey(): string {
  return `${randomBytes(16).toString('hex')}.pdf`;
}

/** Whether `key` has the shape {@link newStorageKey} makes (so it can hold no `/`, `..` or NUL). */
export function isStorageKey(key: unknown): key is string {
  return typeof key === 'string' && STORAGE_KEY_PATTERN.test(key);
}

export type StorageErrorKind = 'bad-key' | 'not-found';

/** A storage failure the caller can act on: a key of the wrong shape (a bug), or a missing document. */
export class StorageError extends Error {
  constructor(
    readonly kind: StorageErrorKind,
    readonly key: string,
  ) {
    super(kind === 'bad-key' ? 'Invalid storage key' : 'No document stored under this key');
    this.name = 'StorageError';
  }
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Documents as files in one directory (created on first write). Each write goes to a temporary
 * `<key>.<random>.part` file beside the target, is fsynced, and is then renamed into place, which is
 * atomic on one filesystem: readers see the whole document or none. `.part` names never match
 * {@link STORAGE_KEY_PATTERN}, so they cannot be read through this adapter; a crash can leave one
 * behind, to be swept by age.
 */
export function createLocalStorage(dir: string): DocumentStorage {
  const root = resolve(dir);

  const pathOf = (key: string): string => {
    if (!isStorageKey(key)) throw new StorageError('bad-key', String(key));
    return join(root, key);
  };

  return {
    async put(key, source) {
      const target = pathOf(key);
      await mkdir(root, { recursive: true });
      const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
      // Open before streaming, so that by the time anything can fail the file exists and the cleanup
      // below removes it (a stream destroyed before its lazy open would create the file afterwards).
      const handle = await open(temp, 'wx');
      try {
        if (source instanceof Uint8Array) {
          await handle.writeFile(source);
        } else {
          // Awaiting each write is the backpressure; a source that errors or is destroyed part way
          // makes the loop throw.
          for await (const chunk of source as AsyncIterable<Uint8Array>) await handle.write(chunk);
        }
        await handle.sync();
        await handle.close();
        await rename(temp, target);
      } catch (error) {
        await handle.close().catch(() => undefined);
        await unlink(temp).catch(() => undefined);
        throw error;
      }
    },

    get(key) {
      const path = pathOf(key);
      const out = new PassThrough();
      const file = createReadStream(path);
      file.on('error', (error) => {
        out.destroy(isMissingFile(error) ? new StorageError('not-found', key) : error);
      });
      out.on('close', () => file.destroy());
      file.pipe(out);
      return out;
    },

    async remove(key) {
      const path = pathOf(key);
      try {
        await unlink(path);
      } catch (error) {
        if (!isMissingFile(error)) throw error;
      }
    },

    async probe() {
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
    },

    async entries() {
      const names = await readdir(root).catch(() => [] as string[]);
      const out: { name: string; kind: 'file' | 'part'; modifiedAt: Date }[] = [];
      for (const name of names) {
        const kind = isStorageKey(name) ? 'file' : PART_PATTERN.test(name) ? 'part' : undefined;
        if (!kind) continue;
        const info = await stat(join(root, name)).catch(() => undefined);
        if (info?.isFile()) out.push({ name, kind, modifiedAt: info.mtime });
      }
      return out;
    },

    async removeEntry(name) {
      if (!isStorageKey(name) && !PART_PATTERN.test(name)) throw new StorageError('bad-key', name);
      await unlink(join(root, name)).catch((error: unknown) => {
        if (!isMissingFile(error)) throw error;
      });
    },

    async size(key) {
      const path = pathOf(key);
      try {
        return (await stat(path)).size;
      } catch (error) {
        throw isMissingFile(error) ? new StorageError('not-found', key) : error;
      }
    },
  };
}
