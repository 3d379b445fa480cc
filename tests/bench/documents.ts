import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { drafts } from '../../drizzle/schema';
import type { IamSmartSandbox } from '../../api/adapters/iamsmart';
import { contactOf } from '../../machines/rules/contacts';
import { formByKey } from '../../machines/forms';
import { bigPdf, landscapeA4 } from '../support/pdf-corpus';

/**
 * The documents and submission benchmarks (issue: documents, signing and submission): the median time to
 * accept a 10 MB, 20-page PDF (upload, streaming to storage with its SHA-256, full parse and page checks),
 * and submissions per second of applications that are ready (signed, documents uploaded, contact confirmed).
 */
export const UPLOAD_MEDIAN_TARGET_MS = 500;

const A2 = formByKey('a2');
if (!A2) throw new Error('the catalogue has no A2');

interface Draft {
  applicationNo: string;
  token: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function createDraft(url: string, email: string): Promise<Draft> {
  const response = await fetch(`${url}/api/drafts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ formKey: 'a2', step: 2, answers: { ...A2?.example, applicantEmail: email } }),
  });
  if (response.status !== 201) throw new Error(`create draft: ${response.status}`);
  return ((await response.json()) as { data: Draft }).data;
}

async function upload(
  url: string,
  draft: Draft,
  documentType: string,
  pdf: Uint8Array<ArrayBuffer>,
): Promise<number> {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), `${documentType}.pdf`);
  const started = performance.now();
  const response = await fetch(`${url}/api/drafts/${draft.applicationNo}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${draft.token}` },
    body: form,
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`upload: ${response.status}`);
  return performance.now() - started;
}

/** The median of `rounds` uploads of one 10 MB, 20-page PDF (each replaces the last). */
export async function benchUpload(url: string, rounds = 15): Promise<{ medianMs: number; p90Ms: number }> {
  const pdf = await bigPdf({ pages: 20, bytes: 10 * 1024 * 1024 - 64 * 1024 });
  const draft = await createDraft(url, 'bench-upload@example.hk');
  await upload(url, draft, 'layoutPlans', pdf); // warm-up
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push(await upload(url, draft, 'layoutPlans', pdf));
  const sorted = [...times].sort((a, b) => a - b);
  return { medianMs: median(times), p90Ms: sorted[Math.floor(sorted.length * 0.9)] ?? 0 };
}

/** A draft ready to submit: every required document, the email confirmed, signed with the iAM Smart sandbox. */
async function readyDraft(url: string, db: Db, sandbox: IamSmartSandbox, n: number): Promise<Draft> {
  const email = `bench-${n}@example.hk`;
  const draft = await createDraft(url, email);
  // The contact confirmation by one-time code is measured elsewhere: recorded here as it would be.
  const value = contactOf({ applicantEmail: email }).contactEmail;
  await db
    .update(drafts)
    .set({ verifiedContacts: { email: { value: value ?? email, at: new Date().toISOString() } } })
    .where(eq(drafts.applicationNo, draft.applicationNo));
  const pdf = await landscapeA4();
  for (const d of A2?.documents.filter((doc) => doc.required) ?? []) await upload(url, draft, d.id, pdf);
  const auth = { authorization: `Bearer ${draft.token}` };
  const started = await fetch(`${url}/api/drafts/${draft.applicationNo}/signing/iamsmart`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{}',
  });
  if (started.status !== 201) throw new Error(`signing: ${started.status} ${await started.text()}`);
  const { requestId, identificationCode } = (
    (await started.json()) as {
      data: { requestId: string; identificationCode: string };
    }
  ).data;
  const tx = (await sandbox.phone.list()).find((r) => r.identificationCode === identificationCode);
  if (!tx) throw new Error('no sandbox request');
  await sandbox.phone.act(tx.txId, 'approve');
  const status = await fetch(`${url}/api/drafts/${draft.applicationNo}/signing/iamsmart/${requestId}`, {
    headers: auth,
  });
  const body = (await status.json()) as { data: { status: string } };
  if (body.data.status !== 'signed') throw new Error(`not signed: ${body.data.status}`);
  return draft;
}

/** Submissions per second of `count` ready applications, `concurrency` at a time. */
export async function benchSubmissions(
  url: string,
  db: Db,
  sandbox: IamSmartSandbox,
  count = 40,
  concurrency = 10,
): Promise<{ perSecond: number; medianMs: number; errors: number }> {
  const ready: Draft[] = [];
  for (let i = 0; i < count; i++) ready.push(await readyDraft(url, db, sandbox, i));
  const times: number[] = [];
  let errors = 0;
  const queue = [...ready];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let draft = queue.shift(); draft; draft = queue.shift()) {
        const t0 = performance.now();
        const response = await fetch(`${url}/api/drafts/${draft.applicationNo}/submission`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${draft.token}`,
            'content-type': 'application/json',
            'idempotency-key': `bench-submit-${draft.applicationNo}`,
          },
          body: '{}',
        });
        await response.arrayBuffer();
        if (response.status !== 200) errors += 1;
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: count / seconds, medianMs: median(times), errors };
}
