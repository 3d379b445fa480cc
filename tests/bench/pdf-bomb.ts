/**
 * `npx tsx tests/bench/pdf-bomb.ts`: uploads a 1 MB PDF whose object stream inflates to 1 GiB (made now,
 * deflated in chunks so this script never holds the GiB) and meanwhile asks GET /api/health one request
 * after another; prints the answer to the upload, the health latencies and the server's memory. The
 * figure of issue 13 (docs/operations.md, "The PDF check"). With DATABASE_URL set, on a fresh database of
 * that server (bd_bench_…, dropped at the end); otherwise in-memory PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDeflate } from 'node:zlib';
import { pino } from 'pino';
import { closeApp, createApp } from '../../api/app';
import { createLocalStorage } from '../../api/adapters/storage';
import { openDatabase } from '../../drizzle/db';
import { seed } from '../../drizzle/seed';
import { formByKey } from '../../machines/forms';
import { createTestDatabaseUrl } from '../support/fresh-postgres';
import { listen } from '../support/http';
import { SIZES_PT } from '../support/pdf-corpus';

const MIB = 1024 * 1024;

/** Deflates `mib` MiB of spaces chunk by chunk. */
async function deflatedSpaces(mib: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(MIB, 0x20);
  chunk.write('5 0 ', 0, 'latin1');
  deflate.write(chunk);
  chunk.write('    ', 0, 'latin1');
  for (let i = 1; i < mib; i += 1) {
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

function bombPdf(deflated: Buffer): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let position = 0;
  const push = (c: Buffer | string) => {
    const b = typeof c === 'string' ? Buffer.from(c, 'latin1') : c;
    parts.push(b);
    position += b.length;
  };
  push('%PDF-1.7\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${SIZES_PT.A4.width} ${SIZES_PT.A4.height}] >>`,
  ];
  objects.forEach((text, i) => {
    offsets[i + 1] = position;
    push(`${i + 1} 0 obj\n${text}\nendobj\n`);
  });
  offsets[4] = position;
  push(
    `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${deflated.length} >>\nstream\n`,
  );
  push(deflated);
  push('\nendstream\nendobj\n');
  const xref = position;
  const entries = [1, 2, 3, 4].map((n) => `${String(offsets[n]).padStart(10, '0')} 00000 n \n`).join('');
  push(
    `xref\n0 5\n0000000000 65535 f \n${entries}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return Buffer.concat(parts);
}

const made = performance.now();
const bomb = bombPdf(await deflatedSpaces(1024));
console.log(
  `bomb: ${(bomb.length / MIB).toFixed(2)} MiB on disk, 1 GiB inflated (made in ${((performance.now() - made) / 1000).toFixed(1)} s)`,
);

// Never the database named in DATABASE_URL: a fresh one on that server (dropped at the end), else PGlite.
const fresh = process.env.DATABASE_URL
  ? await createTestDatabaseUrl(process.env.DATABASE_URL, 'bd_bench')
  : undefined;
const database = await openDatabase({ url: fresh?.url ?? '' });
await seed(database.db);
const documentsDir = mkdtempSync(path.join(tmpdir(), 'bd-bench-bomb-'));
const app = createApp({
  db: database,
  logger: pino({ level: 'silent' }),
  documents: { storage: createLocalStorage(documentsDir) },
});
const server = await listen(app);
try {
  const created = await fetch(`${server.baseUrl}/api/drafts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ formKey: 'a2', step: 2, answers: { ...formByKey('a2')?.example } }),
  });
  const { applicationNo, token } = (
    (await created.json()) as { data: { applicationNo: string; token: string } }
  ).data;
  const form = new FormData();
  form.append('documentType', 'layoutPlans');
  form.append('file', new Blob([new Uint8Array(bomb)], { type: 'application/pdf' }), 'bomb.pdf');
  const rssBefore = process.memoryUsage().rss;
  let rssMax = rssBefore;
  const started = performance.now();
  const upload = fetch(`${server.baseUrl}/api/drafts/${applicationNo}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  let done = false;
  void upload.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const t = performance.now();
    await (await fetch(`${server.baseUrl}/api/health`)).arrayBuffer();
    latencies.push(performance.now() - t);
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
    await new Promise((r) => setTimeout(r, 10));
  }
  const answer = await upload;
  const body = (await answer.json()) as { meta: { code: string }; data: { reason?: string } };
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  console.log(
    `upload: ${answer.status} ${body.meta.code} ${body.data.reason ?? ''} after ${(performance.now() - started).toFixed(0)} ms`,
  );
  console.log(
    `health during the check: ${latencies.length} answers, median ${p(0.5).toFixed(1)} ms, p95 ${p(0.95).toFixed(1)} ms, max ${p(1).toFixed(1)} ms`,
  );
  console.log(
    `server memory (rss): ${(rssBefore / MIB).toFixed(0)} MB before, ${(rssMax / MIB).toFixed(0)} MB at most`,
  );
} finally {
  await server.close();
  await closeApp(app);
  await database.close();
  await fresh?.drop();
  rmSync(documentsDir, { recursive: true, force: true });
}
