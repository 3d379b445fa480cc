import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplicationHarness, draftPath, startApplicationHarness } from './application-harness';

/**
 * An upload the API refuses before reading it (401 no token, 403 a token of another draft) is not read
 * to the end: the answer goes at once with Connection: close and the connection is closed, so a client
 * sending 30 MB gets the answer after a fraction of it.
 */

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness();
});

afterAll(async () => {
  await h?.close();
});

const TOTAL = 30 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x41);

/**
 * Streams a 30 MB multipart body as fast as the socket takes it, also after the answer has come; resolves
 * with the status and the bytes written when the connection closed (all of them if the server read it all).
 */
function bigUpload(
  path: string,
  token?: string,
): Promise<{ status: number; sent: number; connection?: string }> {
  return new Promise((resolve) => {
    const url = new URL(`${h.baseUrl}${path}`);
    let sent = 0;
    let status = 0;
    let connection: string | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ status, sent, connection });
    };
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(TOTAL),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        status = res.statusCode ?? 0;
        connection = res.headers.connection;
        res.resume();
        // The client goes on sending after the answer: only the server closing the connection stops it.
      },
    );
    req.on('error', () => finish());
    req.on('close', finish);
    const pump = () => {
      while (sent < TOTAL && !done && !req.destroyed) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) {
          req.once('drain', pump);
          return;
        }
      }
      if (sent >= TOTAL) req.end(() => setTimeout(finish, 500));
    };
    pump();
  });
}

describe('a large upload refused before its body is read', () => {
  it('answers 401 without a token and stops reading: far less than 30 MB is taken', async () => {
    const draft = await h.newDraft();

    const res = await bigUpload(`${draftPath(draft.applicationNo)}/documents`);

    expect(res.status).toBe(401);
    expect(res.connection).toBe('close');
    expect(res.sent).toBeLessThan(TOTAL / 4);
  });

  it('answers 403 with the token of another draft and stops reading', async () => {
    const draft = await h.newDraft();
    const other = await h.newDraft();

    const res = await bigUpload(`${draftPath(draft.applicationNo)}/documents`, other.token);

    expect(res.status).toBe(403);
    expect(res.connection).toBe('close');
    expect(res.sent).toBeLessThan(TOTAL / 4);
  });
});
