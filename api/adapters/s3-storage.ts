import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, type Readable } from 'node:stream';
import { type DocumentStorage, isStorageKey, StorageError } from './storage';

/**
 * Documents in an S3-compatible object store (AWS S3, MinIO, Ceph ...), so that processes on several
 * machines share them. Why this SDK and how it is run: docs/decisions/042-shared-document-storage.md.
 */
export interface S3StorageOptions {
  bucket: string;
  /** Unset: AWS's own endpoint for `region`. */
  endpoint?: string;
  region: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key` (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
  /** Unset: the SDK's default chain (environment, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Sent with every write as `x-amz-server-side-encryption` (and the KMS key, if any). */
  serverSideEncryption?: { algorithm: ServerSideEncryption; kmsKeyId?: string };
  /** Default 5 s to connect and 60 s without a byte either way; a store that stays silent fails the request. */
  timeouts?: { connectMs: number; idleMs: number };
}

/**
 * One part of a multipart upload: the most the adapter holds of a document in memory at once (S3's
 * smallest part). A document under this size is sent by one PUT once it has been read whole; a larger
 * one as parts, one at a time, and it becomes visible only when the upload is completed.
 */
export const S3_PART_BYTES = 5 * 1024 * 1024;

export function s3Client(options: S3StorageOptions): S3Client {
  return new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // The upload is hashed (SHA-256) by the receiver; the SDK's newer trailing checksums are not
    // understood by every S3-compatible store, so they are sent only where an operation requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not answer fails the request instead of holding it (and its upload) for ever.
    requestHandler: {
      connectionTimeout: options.timeouts?.connectMs ?? 5_000,
      requestTimeout: options.timeouts?.idleMs ?? 60_000,
      throwOnRequestTimeout: true,
    },
  });
}

/** No object under the key (GET's `NoSuchKey`, HEAD's bodiless `NotFound`); a missing bucket is not this. */
function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

/**
 * The {@link DocumentStorage} of an S3 bucket, keys as the local adapter's (`<32 hex>.pdf`, at the
 * bucket's root). Writes are streamed (at most {@link S3_PART_BYTES} held at once) and atomic as S3 makes
 * them: an object appears whole or not at all. A write cut off part way leaves no object; the parts of
 * a cut-off multipart upload are aborted, or, if the process died, removed by the bucket's lifecycle
 * rule (docs/operations.md, "Several machines"). `entries` lists whole objects only.
 */
export function createS3Storage(
  options: S3StorageOptions,
  client: S3Client = s3Client(options),
): DocumentStorage {
  const Bucket = options.bucket;
  const encryption = options.serverSideEncryption
    ? {
        ServerSideEncryption: options.serverSideEncryption.algorithm,
        ...(options.serverSideEncryption.kmsKeyId
          ? { SSEKMSKeyId: options.serverSideEncryption.kmsKeyId }
          : {}),
      }
    : {};

  const checked = (key: string): string => {
    if (!isStorageKey(key)) throw new StorageError('bad-key', String(key));
    return key;
  };

  return {
    async put(key, source) {
      const Key = checked(key);
      const params = { Bucket, Key, ContentType: 'application/pdf', ...encryption };
      if (source instanceof Uint8Array) {
        await client.send(new PutObjectCommand({ ...params, Body: source }));
        return;
      }
      // The source's own error, not the SDK's wrapping of it: the receiver tells a limit from a failure.
      let sourceError: Error | undefined;
      source.once('error', (error: Error) => (sourceError ??= error));
      const upload = new Upload({
        client,
        params: { ...params, Body: source },
        partSize: S3_PART_BYTES,
        queueSize: 1,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        throw sourceError ?? error;
      }
      // A source that failed after its last chunk was read (the upload completed anyway) is not whole.
      if (sourceError) {
        await client.send(new DeleteObjectCommand({ Bucket, Key })).catch(() => undefined);
        throw sourceError;
      }
    },

    get(key) {
      const Key = checked(key);
      const out = new PassThrough();
      const abort = new AbortController();
      out.on('close', () => abort.abort());
      client.send(new GetObjectCommand({ Bucket, Key }), { abortSignal: abort.signal }).then(
        (answer) => {
          const body = answer.Body as Readable | undefined;
          if (!body) return out.destroy(new StorageError('not-found', key));
          body.on('error', (error) => out.destroy(error));
          out.on('close', () => body.destroy());
          body.pipe(out);
        },
        (error: unknown) => {
          out.destroy(isMissing(error) ? new StorageError('not-found', key) : (error as Error));
        },
      );
      return out;
    },

    async remove(key) {
      // Deleting a key that is not there succeeds in S3: retries are safe as the interface asks.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },

    async size(key) {
      const Key = checked(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        throw isMissing(error) ? new StorageError('not-found', key) : error;
      }
    },

    async probe() {
      // The bucket answers with these credentials. Not a test write: the balancer's check runs every
      // few seconds on every process, and a PUT each time would cost (docs/decisions/042-shared-document-storage.md).
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    async entries() {
      const out: { name: string; kind: 'file' | 'part'; modifiedAt: Date }[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket })) {
        for (const object of page.Contents ?? []) {
          if (isStorageKey(object.Key))
            out.push({ name: object.Key, kind: 'file', modifiedAt: object.LastModified ?? new Date(0) });
        }
      }
      return out;
    },

    async removeEntry(name) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(name) }));
    },
  };
}
