import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../api/adapters/storage';
import { clamdScanner, virusScannerFromEnv } from '../../api/adapters/virus-scanner';
import { type Clamd, EICAR, startClamd } from '../support/clamd';
import { landscapeA4 } from '../support/pdf-corpus';
import { type DraftHarness, startDraftHarness } from './drafts-harness';

/**
 * Every upload is scanned by a real ClamAV daemon, started here with a signature database made here
 * (the EICAR test signature). Infected: 422 in the person's language, nothing kept. Scanner down: 503,
 * the file not accepted, and the person told to try again; once it is back, the same file goes in.
 */
const PORT = Number(process.env.E2E_PORT ?? 3300) + 5;
let clamd: Clamd;
let h: DraftHarness;
let storageDir: string;

beforeAll(async () => {
  clamd = await startClamd(PORT);
  storageDir = await mkdtemp(path.join(tmpdir(), 'bd-scan-'));
  h = await startDraftHarness({
    login: {
      app: {
        documents: {
          storage: createLocalStorage(storageDir),
          scanner: clamdScanner({ host: clamd.host, port: clamd.port, timeoutMs: 5_000 }),
        },
      },
    },
  });
}, 90_000);

afterAll(async () => {
  await h?.close();
  await clamd?.stop();
  await rm(storageDir, { recursive: true, force: true });
});

async function upload(content: Uint8Array, lang = 'en') {
  const draft = await h.createDraft();
  const form = new FormData();
  form.append('documentType', 'layoutPlans');
  form.append('file', new Blob([content.slice()], { type: 'application/pdf' }), 'plan.pdf');
  const response = await fetch(
    `${h.baseUrl}/api/drafts/${encodeURIComponent(draft.applicationNo)}/documents?lang=${lang}`,
    { method: 'POST', headers: { authorization: `Bearer ${draft.token}` }, body: form },
  );
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as { meta: { code: string; message: string }; data: unknown },
  };
}

/**
 * A landscape A4 PDF that carries the EICAR string inside it, as the raw bytes of a stream (a payload in a
 * well-formed file: bytes after `%%EOF` are refused by the PDF check before any scan).
 */
async function infectedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(await landscapeA4());
  pdf.context.register(pdf.context.stream(EICAR));
  return pdf.save({ useObjectStreams: false });
}

const storedPdfs = async () =>
  (await readdir(storageDir).catch(() => [] as string[])).filter((f) => f.endsWith('.pdf'));

describe('uploads scanned by clamd', () => {
  it('accepts a clean PDF', async () => {
    const res = await upload(await landscapeA4());

    expect(res.status).toBe(201);
  });

  it('refuses a PDF carrying the EICAR test virus with 422, in English, and keeps nothing', async () => {
    const before = await storedPdfs();

    const res = await upload(await infectedPdf());

    expect(res.status).toBe(422);
    expect(res.body.meta).toEqual({
      code: 'DOCUMENT_INFECTED',
      message:
        '"plan.pdf" contains a virus and was not accepted. Please check your computer with up-to-date anti-virus software and upload a clean copy.',
    });
    expect(res.body.data).toEqual({ viruses: ['Portal-Test.EICAR.UNOFFICIAL'] });
    expect(await storedPdfs()).toEqual(before);
  });

  it('says so in Traditional and Simplified Chinese', async () => {
    const tc = await upload(await infectedPdf(), 'tc');
    const sc = await upload(await infectedPdf(), 'sc');

    expect(tc.body.meta.message).toBe(
      '「plan.pdf」含有電腦病毒，未獲接納。請以最新的防毒軟件檢查你的電腦，然後上載沒有病毒的副本。',
    );
    expect(sc.body.meta.message).toBe(
      '“plan.pdf”含有电脑病毒，未获接纳。请以最新的防毒软件检查你的电脑，然后上载没有病毒的副本。',
    );
  });

  it('refuses uploads with 503 and Retry-After while the scanner is down, and accepts them once it is back', async () => {
    await clamd.stop();
    const before = await storedPdfs();

    const down = await upload(await landscapeA4());
    const downTc = await upload(await landscapeA4(), 'tc');
    const after = await storedPdfs();
    clamd = await startClamd(PORT);
    const back = await upload(await landscapeA4());

    expect(down.status).toBe(503);
    expect(down.retryAfter).toBe('60');
    expect(down.body.meta).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message:
        'We cannot check uploaded files for viruses at the moment, so your file was not accepted. Please try again in a few minutes.',
    });
    expect(downTc.body.meta.message).toBe(
      '我們暫時未能為上載的檔案進行病毒檢查，因此未有接納你的檔案。請於數分鐘後再試。',
    );
    expect(after).toEqual(before);
    expect(back.status).toBe(201);
  }, 90_000);
});

describe('the scanner from the environment', () => {
  const logger = pino({ level: 'silent' });

  it('refuses to start in production without CLAMD_HOST or CLAMD_SOCKET', () => {
    expect(() => virusScannerFromEnv(logger, { NODE_ENV: 'production' })).toThrow(
      'CLAMD_HOST (with CLAMD_PORT) or CLAMD_SOCKET must be set in production',
    );
  });

  it('is off in development without them, and clamd with them', () => {
    expect(virusScannerFromEnv(logger, { NODE_ENV: 'development' }).kind).toBe('off');
    expect(virusScannerFromEnv(logger, { CLAMD_HOST: '127.0.0.1', CLAMD_PORT: '3310' }).kind).toBe('clamd');
    expect(() => virusScannerFromEnv(logger, { CLAMD_HOST: 'x', CLAMD_PORT: 'port' })).toThrow('CLAMD_PORT');
  });
});
