import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formByKey } from '../../machines/forms';
import type { DraftCreatedData } from '../../machines/rules/drafts';
import { type ApiProcess, startApiProcess } from '../support/api-process';
import { type FreshDatabase, createTestDatabaseUrl } from '../support/fresh-postgres';
import type { EnvelopeBody } from '../support/http';
import { TEST_OTP_SECRET } from '../support/login';
import { landscapeA4 } from '../support/pdf-corpus';
import { draftPath } from './application-harness';

/**
 * SIGTERM to a real server process (`api/server.ts`) while six uploads are still sending their bodies:
 * the process stops accepting connections, lets the six finish (SHUTDOWN_TIMEOUT_SECONDS, default 25 s)
 * and exits 0. Each upload takes 12 s to send, longer than the 9 s the server used to wait.
 */
const PORT = Number(process.env.E2E_PORT ?? 3300) + 45;
const UPLOADS = 6;
const SEND_SECONDS = 12;

let fresh: FreshDatabase | undefined;
let dataDir: string;
let api: ApiProcess;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'bd-shutdown-'));
  if (process.env.DATABASE_URL) fresh = await createTestDatabaseUrl(process.env.DATABASE_URL, 'bd_test');
  api = await startApiProcess(PORT, {
    ...(fresh ? { DATABASE_URL: fresh.url } : { DATABASE_URL: '', DATA_DIR: dataDir }),
    OTP_SECRET: TEST_OTP_SECRET,
    DOCUMENT_STORAGE_DIR: path.join(dataDir, 'documents'),
  });
}, 60_000);

afterAll(async () => {
  await api?.crash();
  await fresh?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function newDraft(): Promise<DraftCreatedData> {
  const response = await fetch(`${api.url}/api/drafts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ formKey: 'a2', answers: {}, step: 1, lang: 'en' }),
  });
  const body = (await response.json()) as EnvelopeBody<DraftCreatedData>;
  if (response.status !== 201) throw new Error(`draft: ${response.status}`);
  return body.data;
}

/** A multipart upload whose body is sent in twelve pieces, one a second; `sending` resolves once the first is out. */
function slowUpload(draft: DraftCreatedData, documentType: string, content: Uint8Array) {
  const boundary = `----bd${Date.now()}${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\n${documentType}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pieces = Array.from({ length: SEND_SECONDS }, (_, i) =>
    content.subarray(
      Math.floor((i * content.length) / SEND_SECONDS),
      Math.floor(((i + 1) * content.length) / SEND_SECONDS),
    ),
  );
  const chunks = [head, ...pieces, tail];
  let first = true;
  let started: () => void = () => undefined;
  const sending = new Promise<void>((resolve) => (started = resolve));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.shift();
      if (!next) return controller.close();
      if (!first) await new Promise((resolve) => setTimeout(resolve, 1_000));
      first = false;
      controller.enqueue(new Uint8Array(next));
      started();
    },
  });
  const answer = fetch(`${api.url}${draftPath(draft.applicationNo)}/documents`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${draft.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit).then(
    (r) => r.status,
    (error: unknown) =>
      `failed: ${error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)}`,
  );
  return { sending, answer };
}

describe('SIGTERM during six slow uploads', () => {
  it('lets all six finish, refuses new connections meanwhile, and exits 0', async () => {
    const form = formByKey('a2');
    const type = form?.documents.find((d) => d.required)?.id ?? '';
    const content = await landscapeA4();
    const drafts = await Promise.all(Array.from({ length: UPLOADS }, () => newDraft()));
    const uploads = drafts.map((draft) => slowUpload(draft, type, content));
    await Promise.all(uploads.map((u) => u.sending));
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const signalled = performance.now();
    const exited = new Promise<number | null>((resolve) => api.child.once('exit', (code) => resolve(code)));
    api.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const during = await fetch(`${api.url}/api/health/live`).then(
      (r) => `answered ${r.status}`,
      (error: unknown) =>
        error instanceof Error ? String((error.cause as { code?: string })?.code ?? error) : String(error),
    );
    const answers = await Promise.all(uploads.map((u) => u.answer));
    const code = await exited;
    const completed = answers.filter((a) => a === 201).length;
    console.info(
      `SIGTERM during ${UPLOADS} slow uploads (${SEND_SECONDS} s each): ${completed} of ${UPLOADS} completed ` +
        `(${answers.join(', ')}); a new connection meanwhile: ${during}; exit ${code} after ` +
        `${((performance.now() - signalled) / 1000).toFixed(1)} s`,
    );

    expect(answers).toEqual(Array.from({ length: UPLOADS }, () => 201));
    expect(during).toBe('ECONNREFUSED');
    expect(code).toBe(0);
  }, 60_000);
});
