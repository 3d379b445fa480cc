import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentData } from '../../machines/rules/submission';
import { type Database, openDatabase } from '../../drizzle/db';
import { draftDocuments, drafts, outbox, submissions } from '../../drizzle/schema';
import { formByKey } from '../../machines/forms';
import type { DraftCreatedData, DraftResumedData } from '../../machines/rules/drafts';
import { type ApiProcess, startApiProcess } from '../support/api-process';
import { type FreshDatabase, createTestDatabaseUrl } from '../support/fresh-postgres';
import { type Haproxy, startHaproxy } from '../support/haproxy';
import { type S3Server, startS3Server } from '../support/s3-server';
import type { EnvelopeBody } from '../support/http';
import { TEST_OTP_SECRET, codeIn } from '../support/login';
import { landscapeA4 } from '../support/pdf-corpus';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp';
import { draftPath, newKey } from './application-harness';
import { documentStorageFromEnv } from '../../api/adapters/document-storage';
import type { DocumentStorage } from '../../api/adapters/storage';
import { sweepFiles } from '../../api/jobs/maintenance';
import type { IamSmartStarted, SigningStatusData } from '../../api/modules/signing/signing.types';
import type { SubmissionData } from '../../machines/rules/submission';

/**
 * Two API processes (`api/server.ts`, each its own Node process) behind a real HAProxy, round-robin, on
 * one Postgres and one document storage — run twice: a shared directory, then an S3 bucket (s3rver, one
 * for both processes; docs/decisions/042-shared-document-storage.md). A whole application goes through both (save, resume, confirm
 * the email, upload, iAM Smart signing, submit, download); one process is killed with SIGKILL in the
 * middle of an upload and another in the middle of a submit, and the flow completes on the other one
 * with nothing lost (every message sent, every document there, each one downloaded through either
 * process) and nothing doubled.
 */
const FIRST_PORT = Number(process.env.E2E_PORT ?? 3300) + 20;
const form = formByKey('a2');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let fresh: FreshDatabase;
let database: Database;
let smtp: SmtpCapture;
let documentsDir: string;
let s3: S3Server | undefined;
let storage: DocumentStorage;
let env: Record<string, string>;
let BASE_PORT = FIRST_PORT;
const processes: Record<string, ApiProcess> = {};
let lb: Haproxy;

type Reply<T> = { status: number; body: EnvelopeBody<T> };

async function call<T = unknown>(
  method: 'GET' | 'POST' | 'PUT',
  urlPath: string,
  { token, body, headers = {} }: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const isForm = body instanceof FormData;
  const response = await fetch(`${lb.url}${urlPath}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as EnvelopeBody<T> };
}

async function mailTo(address: string, after: number): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.mails.slice(after).find((m) => m.to.includes(address));
    if (mail) return mail.text;
    if (Date.now() > until) throw new Error(`no mail to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function start(name: 'a' | 'b') {
  processes[name] = await startApiProcess(name === 'a' ? BASE_PORT + 1 : BASE_PORT + 2, env);
}

type Backend = 'local' | 's3';

async function setUp(backend: Backend) {
  BASE_PORT = FIRST_PORT + (backend === 'local' ? 0 : 10);
  fresh = await createTestDatabaseUrl(process.env.DATABASE_URL ?? '', 'bd_test');
  database = await openDatabase({ url: fresh.url });
  smtp = await startSmtpCapture();
  documentsDir = await mkdtemp(path.join(tmpdir(), 'bd-two-processes-'));
  s3 = backend === 's3' ? await startS3Server() : undefined;
  const storageEnv = s3 ? s3.env : { DOCUMENT_STORAGE_DIR: documentsDir };
  storage = documentStorageFromEnv(documentsDir, storageEnv);
  env = {
    DATABASE_URL: fresh.url,
    OTP_SECRET: TEST_OTP_SECRET,
    SMTP_URL: smtp.url,
    ...storageEnv,
    LOG_LEVEL: 'info',
  };
  await Promise.all([start('a'), start('b')]);
  lb = await startHaproxy(BASE_PORT, [
    { name: 'a', port: BASE_PORT + 1 },
    { name: 'b', port: BASE_PORT + 2 },
  ]);
}

async function tearDown() {
  await lb?.stop();
  await Promise.all(Object.values(processes).map((p) => p.stop()));
  await smtp?.close();
  await database?.close();
  await fresh?.drop();
  await s3?.stop();
  if (documentsDir) await rm(documentsDir, { recursive: true, force: true });
}

const entriesOf = async (kind: 'file' | 'part') =>
  ((await storage.entries?.()) ?? []).filter((e) => e.kind === kind).map((e) => e.name);

/** The one server HAProxy is sending a request to right now (waits until there is one). */
async function busyServer(): Promise<'a' | 'b'> {
  const until = Date.now() + 10_000;
  for (;;) {
    const current = await lb.current();
    const busy = Object.entries(current).find(([, n]) => n > 0)?.[0];
    if (busy === 'a' || busy === 'b') return busy;
    if (Date.now() > until) throw new Error(`no request in flight: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A multipart upload whose file part trickles in over about a second (so it can be cut off). */
function slowUpload(applicationNo: string, token: string, documentType: string, content: Uint8Array) {
  const boundary = `----bd${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\n${documentType}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunks = [
    head,
    ...Array.from({ length: 10 }, (_, i) =>
      content.subarray((i * content.length) / 10, ((i + 1) * content.length) / 10),
    ),
    tail,
  ];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.shift();
      if (!next) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      controller.enqueue(new Uint8Array(next));
    },
  });
  return fetch(`${lb.url}${draftPath(applicationNo)}/documents`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit);
}

function upload(applicationNo: string, token: string, documentType: string, content: Uint8Array) {
  const body = new FormData();
  body.append('documentType', documentType);
  body.append('file', new Blob([content.slice()], { type: 'application/pdf' }), `${documentType}.pdf`);
  return call<DocumentData>('POST', `${draftPath(applicationNo)}/documents`, { token, body });
}

describe.skipIf(!process.env.DATABASE_URL).each<Backend>(['local', 's3'])(
  'two API processes behind HAProxy, documents in %s storage',
  (backend) => {
    beforeAll(() => setUp(backend), 90_000);
    afterAll(tearDown);

    it('complete a whole application across both, through a kill -9 during an upload and during a submit', async () => {
      if (!form) throw new Error('form a2 missing');
      const email = `two.processes.${process.pid}@example.hk`;
      // The contact person's email is the applicant's: confirming it once confirms both (spec §4).
      const answers = { ...form.example, applicantEmail: email, contactEmail: email };
      const log: string[] = [];

      // Save, then resume by a one-time code (the code is sent by whichever process's worker takes the job).
      const created = await call<DraftCreatedData>('POST', '/api/drafts', {
        body: { formKey: form.key, answers, step: 1, lang: 'en' },
      });
      expect(created.status).toBe(201);
      const { applicationNo } = created.body.data;
      const saved = await call('PUT', draftPath(applicationNo), {
        token: created.body.data.token,
        body: { version: 1, answers, step: 3 },
      });
      expect(saved.status).toBe(200);
      let mails = smtp.mails.length;
      expect(
        (await call('POST', '/api/drafts/resume/send', { body: { applicationNo, contact: email } })).status,
      ).toBe(200);
      const resumeCode = codeIn(await mailTo(email, mails));
      const resumed = await call<DraftResumedData>('POST', '/api/drafts/resume/verify', {
        body: { applicationNo, contact: email, code: resumeCode },
      });
      expect(resumed.status).toBe(200);
      const token = resumed.body.data.token;

      // Confirm the email.
      mails = smtp.mails.length;
      expect(
        (
          await call('POST', `${draftPath(applicationNo)}/contact/send`, {
            token,
            body: { channel: 'email' },
          })
        ).status,
      ).toBe(200);
      const contactCode = codeIn(await mailTo(email, mails));
      const confirmed = await call('POST', `${draftPath(applicationNo)}/contact/verify`, {
        token,
        body: { channel: 'email', code: contactCode },
      });
      expect(confirmed.status).toBe(200);

      // Upload every required document; the first one is cut off by a kill -9 of the process receiving it.
      const required = form.documents.filter((d) => d.required);
      const sent = new Map<string, string>();
      for (const [i, doc] of required.entries()) {
        const content = await landscapeA4();
        if (i === 0) {
          const cut = slowUpload(applicationNo, token, doc.id, content).then(
            (r) => r.status,
            () => 'connection lost',
          );
          const victim = await busyServer();
          // Killed once the file is being written (on disk its `.part` file is there), not before. S3
          // receives a document under 5 MB in one PUT at its end, so there the process is killed a third
          // of the way through the body, while the adapter is reading it.
          const until = Date.now() + 10_000;
          if (backend === 's3') await new Promise((resolve) => setTimeout(resolve, 400));
          else
            while ((await entriesOf('part')).length === 0) {
              if (Date.now() > until) throw new Error('the upload never started writing');
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
          await processes[victim]?.crash();
          log.push(`upload: killed ${victim} while writing, its answer: ${String(await cut)}`);
          // The person tries again: HAProxy sends it to the process still up.
          const again = await upload(applicationNo, token, doc.id, content);
          expect(again.status).toBe(201);
          await start(victim); // restarted, as a supervisor would
        } else {
          expect((await upload(applicationNo, token, doc.id, content)).status).toBe(201);
        }
        sent.set(doc.id, sha256(content));
      }

      // Sign with iAM Smart: started, approved on the phone and polled through different processes.
      const started = await call<IamSmartStarted>('POST', `${draftPath(applicationNo)}/signing/iamsmart`, {
        token,
      });
      expect(started.status).toBe(201);
      const pending = await call<{ txId: string; hash: string }[]>('GET', '/api/dev/iamsmart');
      const tx = pending.body.data.find((p) => p.hash === started.body.data.digest);
      expect(tx).toBeDefined();
      const approved = await call('POST', `/api/dev/iamsmart/${tx?.txId ?? ''}`, {
        body: { action: 'approve' },
      });
      expect(approved.status).toBe(200);
      const polls = await Promise.all(
        [1, 2, 3, 4].map(() =>
          call<SigningStatusData>(
            'GET',
            `${draftPath(applicationNo)}/signing/iamsmart/${started.body.data.requestId}`,
            { token },
          ),
        ),
      );
      expect(polls.map((p) => p.body.data.status)).toEqual(['signed', 'signed', 'signed', 'signed']);

      // Submit; the draft row is held locked from here, so the submit is surely in the middle of its
      // transaction when the process handling it is killed.
      const lock = postgres(fresh.url, { max: 1, onnotice: () => {} });
      const key = newKey();
      let release: () => void = () => undefined;
      const held = lock.begin(async (sql) => {
        await sql`select id from drafts where application_no = ${applicationNo} for update`;
        await new Promise<void>((resolve) => (release = resolve));
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const first = call<SubmissionData>('POST', `${draftPath(applicationNo)}/submission`, {
        token,
        headers: { 'idempotency-key': key },
      }).then(
        (r) => r.status,
        () => 'connection lost',
      );
      const victim = await busyServer();
      await processes[victim]?.crash();
      release();
      await held;
      await lock.end();
      log.push(`submit: killed ${victim}, its answer: ${String(await first)}`);
      const retried = await call<SubmissionData>('POST', `${draftPath(applicationNo)}/submission`, {
        token,
        headers: { 'idempotency-key': key },
      });
      expect(retried.status).toBe(200);
      await start(victim);

      // Download every file through the balancer, then through each process: each document as uploaded,
      // whichever process received it.
      const [a, b] = [processes.a, processes.b];
      if (!a || !b) throw new Error('a process is missing');
      const links = await call<{ files: { id: string; kind: string; documentType?: string; url: string }[] }>(
        'POST',
        `${draftPath(applicationNo)}/submission/links`,
        { token },
      );
      expect(links.status).toBe(200);
      for (const file of links.body.data.files) {
        for (const base of [lb.url, a.url, b.url]) {
          const response = await fetch(new URL(file.url, base));
          expect(response.status).toBe(200);
          const bytes = new Uint8Array(await response.arrayBuffer());
          if (file.kind === 'document' && file.documentType)
            expect(sha256(bytes)).toBe(sent.get(file.documentType));
        }
      }
      log.push(`downloaded ${links.body.data.files.length} file(s) through the balancer, a and b`);

      // Nothing doubled: one submission, one document per type, and every stored file is one of them.
      const [draftRow] = await database.db
        .select()
        .from(drafts)
        .where(eq(drafts.applicationNo, applicationNo));
      const subs = await database.db
        .select()
        .from(submissions)
        .where(eq(submissions.draftId, draftRow?.id ?? -1));
      expect(subs).toHaveLength(1);
      const docs = await database.db
        .select()
        .from(draftDocuments)
        .where(eq(draftDocuments.draftId, draftRow?.id ?? -1));
      expect(docs.map((d) => d.documentType).sort()).toEqual(required.map((d) => d.id).sort());
      const stored = await entriesOf('file');
      for (const doc of docs) expect(stored).toContain(doc.storageKey);
      // With S3 nothing was written to a local directory: the bucket is the only copy.
      if (backend === 's3') expect(await readdir(documentsDir)).toEqual([]);
      // The killed upload's `.part` file stays until the hourly sweep (sweep.files) removes it; S3 never
      // made an object of it.
      const parts = await entriesOf('part');
      log.push(`left behind: ${parts.length} .part file(s), for the sweep`);
      expect(parts.length).toBeLessThanOrEqual(backend === 's3' ? 0 : 1);
      // The sweep, an hour later, takes the `.part` and finds no orphan: every whole file is named by a row.
      const later = { now: () => new Date(Date.now() + 2 * 3_600_000) };
      const swept = await sweepFiles({
        db: database.db,
        clock: later,
        storage,
      });
      expect(swept).toEqual({ orphans: 0, parts: parts.length });

      // Nothing lost, nothing doubled: every message queued was sent, once.
      const acknowledgement = () => smtp.mails.filter((m) => m.subject.includes(applicationNo));
      const until = Date.now() + 20_000;
      while (acknowledgement().length === 0 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const queued = await database.db.select().from(outbox).where(eq(outbox.toAddress, email));
      const received = smtp.mails.filter((m) => m.to.includes(email));
      log.push(
        `messages queued ${queued.length}, received ${received.length}, lost ${queued.filter((q) => !q.sentAt).length}`,
      );
      expect(queued).toHaveLength(3); // resume code, contact code, acknowledgement
      expect(received).toHaveLength(3);
      expect(queued.every((q) => q.sentAt !== null)).toBe(true);
      expect(acknowledgement()).toHaveLength(1);

      // Round-robin: both processes served requests.
      const totals = await lb.totals();
      log.push(`requests per server: ${JSON.stringify(totals)}`);
      expect(totals.a).toBeGreaterThan(3);
      expect(totals.b).toBeGreaterThan(3);
      console.log(`${backend}:\n${log.join('\n')}`);
    }, 180_000);
  },
);
