import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { ApiError, BadRequestError, UnsupportedMediaTypeError } from './errors';
import { fieldError } from './field-errors';
import type { ApiMessageKey } from './i18n';

/** Multipart bodies that are read whole (a signature file); uploads are streamed by the documents service. */

export const isMultipart = (req: Request) => req.is('multipart/form-data') === 'multipart/form-data';

/** 415 unless the body is multipart/form-data. */
export function requireMultipart(req: Request) {
  if (!isMultipart(req)) throw new UnsupportedMediaTypeError();
}

/**
 * Receives a streamed upload (415 unless multipart). A body refused past a limit (413) is not read to its
 * end: the connection cannot carry another request, so it is closed.
 */
export async function receiveUpload<T>(req: Request, res: Response, upload: () => Promise<T>): Promise<T> {
  requireMultipart(req);
  try {
    return await upload();
  } catch (e) {
    if (e instanceof ApiError && e.status === 413) res.set('Connection', 'close');
    throw e;
  }
}

/** The messages of a small upload refused: too large (params kb and mb) or no file. */
export interface SmallFileMessages {
  tooLarge: ApiMessageKey;
  noFile: ApiMessageKey;
}

const SIGNATURE_FILE: SmallFileMessages = {
  tooLarge: 'signing.ecert.tooLarge',
  noFile: 'signing.ecert.noFile',
};

/** One small file field of a multipart body, in memory (at most `maxBytes`, else 413). */
export async function readSmallFile(
  req: IncomingMessage,
  field: string,
  maxBytes: number,
  messages: SmallFileMessages = SIGNATURE_FILE,
): Promise<Uint8Array> {
  return (await readSmallUpload(req, field, maxBytes, messages)).file;
}

/** One small file field and the text fields of a multipart body (at most 10, each at most 1 kB). */
export function readSmallUpload(
  req: IncomingMessage,
  field: string,
  maxBytes: number,
  messages: SmallFileMessages,
): Promise<{ file: Uint8Array; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 1024 },
      });
    } catch {
      reject(new BadRequestError('documents.badMultipart'));
      return;
    }
    let found: Uint8Array | undefined;
    let failed: ApiError | undefined;
    const fields: Record<string, string> = {};
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failed = new ApiError(413, 'PAYLOAD_TOO_LARGE', messages.tooLarge, null, {
          params: { kb: Math.round(maxBytes / 1024), mb: Math.round((maxBytes / 1024 / 1024) * 10) / 10 },
        });
        req.unpipe(parser);
        stream.resume();
        reject(failed);
      });
      stream.on('end', () => {
        if (name === field && !failed) found = Buffer.concat(chunks);
      });
    });
    parser.on('error', () => reject(new BadRequestError('documents.badMultipart')));
    parser.on('close', () => {
      if (failed) return;
      if (!found || found.length === 0) reject(fieldError([field], messages.noFile));
      else resolve({ file: found, fields });
    });
    req.pipe(parser);
  });
}
