import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeApp, createApp } from '../../api/app';
import { createLocalStorage } from '../../api/adapters/storage';
import { createPdfCheckPool, type PdfChecker } from '../../api/modules/shared/uploads/pdf-check-pool';
import { formByKey } from '../../machines/forms';
import { type TestServer, listen } from '../support/http';
import { TEST_OTP_SECRET } from '../support/login';
import { bigPdf } from '../support/pdf-corpus';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { MB } from '../../api/modules/shared/uploads/checked-upload';

/**
 * The finding of issue 13 at its own scale, with the real limits (10 MiB a file, 50 MiB an application):
 * six parallel 9 MiB uploads of six different types to one draft of form E2. Before the row lock, 56.6 MB
 * were stored; now what is stored stays within 50 MiB and the rest is refused (413).
 */

let database: TestDatabase;
let server: TestServer;
let app: ReturnType<typeof createApp>;
let storageDir: string;
let checker: PdfChecker;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'bd-total-'));
  checker = createPdfCheckPool({ threads: 6 });
  database = await createTestDatabase({ seed: true });
  app = createApp({
    db: database,
    logger: pino({ level: 'silent' }),
    auth: { otpSecret: TEST_OTP_SECRET, minSendDurationMs: 0 },
    rateLimits: false,
    documents: {
      storage: createLocalStorage(storageDir),
      limits: { maxFileBytes: 10 * MB, maxTotalBytes: 50 * MB },
    },
  });
  server = await listen(app);
});

afterAll(async () => {
  await server?.close();
  await closeApp(app);
  await checker?.close();
  await database?.drop();
  await rm(storageDir, { recursive: true, force: true });
});

describe('six parallel 9 MiB uploads of different types (limits 10 / 50 MiB)', () => {
  it('store at most 50 MiB: 0 bytes over, the rest refused with 413, no file left behind', async () => {
    const e2 = formByKey('e2');
    if (!e2) throw new Error('form e2 missing');
    const types = e2.documents.map((d) => d.id);
    expect(types).toHaveLength(6);
    const created = await fetch(`${server.baseUrl}/api/drafts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ formKey: 'e2' }),
    });
    const { applicationNo, token } = (
      (await created.json()) as { data: { applicationNo: string; token: string } }
    ).data;
    const file = await bigPdf({ pages: 4, bytes: 9 * MB });

    const answers = await Promise.all(
      types.map(async (type) => {
        const form = new FormData();
        form.append('documentType', type);
        form.append('file', new Blob([file], { type: 'application/pdf' }), `${type}.pdf`);
        const res = await fetch(`${server.baseUrl}/api/drafts/${applicationNo}/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );

    const list = await fetch(`${server.baseUrl}/api/drafts/${applicationNo}/documents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { totalBytes, documents } = (
      (await list.json()) as { data: { totalBytes: number; documents: unknown[] } }
    ).data;
    const over = Math.max(0, totalBytes - 50 * MB);
    console.info(
      `six parallel uploads of ${(file.length / MB).toFixed(2)} MiB: ${answers.filter((s) => s === 201).length} ` +
        `accepted, ${answers.filter((s) => s === 413).length} refused (413); ${(totalBytes / 1e6).toFixed(1)} MB ` +
        `stored of ${(50 * MB) / 1e6} MB, ${over} bytes over`,
    );
    expect(answers.filter((s) => s !== 201 && s !== 413)).toEqual([]);
    expect(over).toBe(0);
    expect(answers.filter((s) => s === 201)).toHaveLength(5);
    expect((await readdir(storageDir)).filter((f) => f.endsWith('.pdf'))).toHaveLength(documents.length);
  }, 60_000);
});
