import path from 'node:path';
import { ConfigError, readVariable, storageProblems } from '../config';
import { createS3Storage } from './s3-storage';
import { createLocalStorage, type DocumentStorage } from './storage';

/**
 * The document storage the environment chooses: DOCUMENT_STORAGE=local (the default) keeps documents in
 * DOCUMENT_STORAGE_DIR, else in `defaultDir`; DOCUMENT_STORAGE=s3 in the bucket S3_BUCKET, shared by every
 * process on every machine (docs/operations.md, "Several machines"). Throws a {@link ConfigError} for a
 * value that does not fit, as `loadConfig` would.
 */
export function documentStorageFromEnv(
  defaultDir: string,
  env: NodeJS.ProcessEnv = process.env,
): DocumentStorage {
  const read = <K extends Parameters<typeof readVariable>[0]>(name: K) => readVariable(name, env);
  const config = {
    DOCUMENT_STORAGE: read('DOCUMENT_STORAGE'),
    S3_BUCKET: read('S3_BUCKET'),
    S3_ACCESS_KEY_ID: read('S3_ACCESS_KEY_ID'),
    S3_SECRET_ACCESS_KEY: read('S3_SECRET_ACCESS_KEY'),
    S3_SSE: read('S3_SSE'),
    S3_SSE_KMS_KEY_ID: read('S3_SSE_KMS_KEY_ID'),
  };
  const problems = storageProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  if (config.DOCUMENT_STORAGE === 'local' || !config.S3_BUCKET)
    return createLocalStorage(read('DOCUMENT_STORAGE_DIR') ?? path.resolve(defaultDir));
  return createS3Storage({
    bucket: config.S3_BUCKET,
    endpoint: read('S3_ENDPOINT'),
    region: read('S3_REGION'),
    forcePathStyle: read('S3_FORCE_PATH_STYLE') === '1',
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    serverSideEncryption: config.S3_SSE
      ? { algorithm: config.S3_SSE, kmsKeyId: config.S3_SSE_KMS_KEY_ID }
      : undefined,
  });
}
