import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IAM_SMART_SANDBOX_ORIGIN, type PhoneAction } from '../../api/adapters/iamsmart';
import { manifestDigest } from '../../api/modules/signing/signing-manifest';
import { signingRequests } from '../../drizzle/schema';
import { landscapeA4 } from '../support/pdf-corpus';
import { type TestSigner, signDetached, toPem } from '../support/test-ca';
import {
  type ApplicationHarness,
  type DraftState,
  type ReadyDraft,
  draftPath,
  startApplicationHarness,
} from './application-harness';

/**
 * Signing a draft (spec §1, §4): the readiness checks, iAM Smart through the sandbox (its phone answered
 * through /api/dev/iamsmart) and e-Cert signatures made by the test PKI, over real HTTP and Postgres.
 */

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness();
});

afterAll(async () => {
  await h?.close();
});

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const signingPath = (draft: DraftState, rest: string) => `${draftPath(draft.applicationNo)}/signing/${rest}`;
const startIamSmart = (draft: DraftState) =>
  h.call('POST', signingPath(draft, 'iamsmart'), { token: draft.token });
const prepareEcert = (draft: DraftState) =>
  h.call<{ digest: string; content: string }>('GET', signingPath(draft, 'ecert'), { token: draft.token });

function uploadSignature(draft: DraftState, p7s: Uint8Array | string, field = 'signature') {
  const form = new FormData();
  form.append(field, new Blob([typeof p7s === 'string' ? p7s : p7s.slice()]), 'signature.p7s');
  return h.call<{ reference: string }>('POST', signingPath(draft, 'ecert'), {
    token: draft.token,
    body: form,
  });
}

async function requestRow(requestId: string) {
  const [row] = await h.database.db
    .select()
    .from(signingRequests)
    .where(eq(signingRequests.requestId, requestId));
  if (!row) throw new Error(`no signing request ${requestId}`);
  return row;
}

async function requestCount(): Promise<number> {
  return (await h.database.db.select({ id: signingRequests.id }).from(signingRequests)).length;
}

/** A ready draft whose applicant is named as the test PKI's valid signer ("CHAN TAI MAN"). */
const readyForEcert = () => h.readyDraft({ applicantNameEn: 'CHAN TAI MAN' });

describe('signing an application that is not ready', () => {
  it('answers 422 APPLICATION_INCOMPLETE with the fields whose answers are missing, and freezes nothing', async () => {
    const { schoolNameEn: _school, agreeTerms: _terms, ...answers } = h.completeAnswers();
    const draft = await h.newDraft(answers);
    await h.confirmEmail(draft);
    const files = await h.storedFiles();
    const requests = await requestCount();

    const iamSmart = await startIamSmart(draft);
    const ecert = await prepareEcert(draft);

    expect(iamSmart.status).toBe(422);
    expect(iamSmart.body.meta).toEqual({
      code: 'APPLICATION_INCOMPLETE',
      message:
        'Some answers of the application are missing or not valid. Go back to the form, complete it and sign again.',
    });
    expect((iamSmart.body.data as { fields: string[] }).fields.sort()).toEqual([
      'agreeTerms',
      'schoolNameEn',
    ]);
    expect(ecert.status).toBe(422);
    expect(ecert.body.meta.code).toBe('APPLICATION_INCOMPLETE');
    expect(await h.storedFiles()).toEqual(files);
    expect(await requestCount()).toBe(requests);
  });

  it('answers 422 CONTACT_UNVERIFIED when neither the email nor the mobile was confirmed', async () => {
    const draft = await h.newDraft();
    await h.upload(draft, 'layoutPlans', await landscapeA4(), 'layout.pdf');
    await h.upload(draft, 'locationPlan', await landscapeA4(), 'location.pdf');

    const iamSmart = await startIamSmart(draft);
    const ecert = await prepareEcert(draft);

    expect(iamSmart.status).toBe(422);
    expect(iamSmart.body.meta.code).toBe('CONTACT_UNVERIFIED');
    expect(iamSmart.body.meta.message).toBe(
      'Confirm your email address or mobile number with a one-time password on the preview before submitting.',
    );
    expect(ecert.status).toBe(422);
    expect(ecert.body.meta.code).toBe('CONTACT_UNVERIFIED');
  });

  it('answers 422 CONTACT_PERSON_UNVERIFIED while the contact person’s email is not confirmed', async () => {
    const draft = await h.newDraft();
    await h.confirmEmail(draft);

    const iamSmart = await startIamSmart(draft);

    expect(iamSmart.status).toBe(422);
    expect(iamSmart.body.meta).toEqual({
      code: 'CONTACT_PERSON_UNVERIFIED',
      message:
        "Confirm the contact person's email address or mobile number with a one-time password on the preview before submitting.",
    });
  });

  it('answers 422 DOCUMENTS_MISSING with the required documents not uploaded', async () => {
    const draft = await h.newDraft();
    await h.confirmEmail(draft);
    await h.confirmContactPersonEmail(draft);
    await h.upload(draft, 'layoutPlans', await landscapeA4(), 'layout.pdf');

    const iamSmart = await startIamSmart(draft);
    const ecert = await prepareEcert(draft);

    expect(iamSmart.status).toBe(422);
    expect(iamSmart.body).toEqual({
      meta: { code: 'DOCUMENTS_MISSING', message: 'Please submit all required documents' },
      data: { missing: ['locationPlan'] },
    });
    expect(ecert.status).toBe(422);
    expect(ecert.body.meta.code).toBe('DOCUMENTS_MISSING');
  });

  it('answers 422 CONTACT_UNVERIFIED again once the confirmed email is changed', async () => {
    const draft = await h.readyDraft();
    await h.save(draft, { ...draft.answers, applicantEmail: `changed.${draft.email}` });

    const res = await startIamSmart(draft);

    expect(res.status).toBe(422);
    expect(res.body.meta.code).toBe('CONTACT_UNVERIFIED');
  });
});

describe("iAM Smart needs the applicant's HKIC", () => {
  it('answers 422 HKIC_REQUIRED without one (the e-Cert is still offered), in English and Chinese', async () => {
    const draft = await h.readyDraft({ applicantHkic: '' });
    const pendingBefore = (await h.iamSmart.phone.list()).length;

    const res = await startIamSmart(draft);
    const tc = await h.call('POST', `${draftPath(draft.applicationNo)}/signing/iamsmart?lang=tc`, {
      token: draft.token,
      body: {},
    });
    const ecert = await h.call('GET', `${draftPath(draft.applicationNo)}/signing/ecert`, {
      token: draft.token,
    });

    expect(res.status).toBe(422);
    expect(res.body.meta.code).toBe('HKIC_REQUIRED');
    expect(res.body.meta.message).toContain('HKIC number');
    expect(tc.body.meta.message).toContain('香港身份證號碼');
    expect(await h.iamSmart.phone.list()).toHaveLength(pendingBefore);
    expect(ecert.status).toBe(200);
  });
});

describe('signing with iAM Smart', () => {
  it('starts a request with an identification code, the QR text and the digest of the frozen files', async () => {
    const draft = await h.readyDraft();

    const res = await h.call<{
      requestId: string;
      identificationCode: string;
      qrText: string;
      expiresAt: string;
      digest: string;
    }>('POST', signingPath(draft, 'iamsmart'), { token: draft.token });
    const row = await requestRow(res.body.data.requestId);
    const storedPdf = await readFile(path.join(h.storageDir, row.pdfStorageKey));

    expect(res.status).toBe(201);
    expect(res.body.meta).toEqual({
      code: '200',
      message: 'Check the identification code, then sign with the iAM Smart app.',
    });
    expect(res.body.data).toEqual({
      requestId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
      identificationCode: expect.stringMatching(/^[0-9]{4}$/) as unknown,
      qrText: expect.stringMatching(new RegExp(`^${IAM_SMART_SANDBOX_ORIGIN}/sign\\?tx=`)) as unknown,
      expiresAt: new Date(h.clock.now().getTime() + 120_000).toISOString(),
      digest: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
    expect(Buffer.from(storedPdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(row.pdfSha256).toBe(sha256(storedPdf));
    expect(res.body.data.digest).toBe(
      manifestDigest({
        applicationNo: draft.applicationNo,
        formCode: 'A2',
        pdfSha256: sha256(storedPdf),
        documents: draft.documents.map((d) => ({ documentType: d.documentType, sha256: sha256(d.content) })),
      }),
    );
  });

  it('answers pending until the phone approves, then signed with a reference', async () => {
    const draft = await h.readyDraft();
    const started = await h.startIamSmart(draft);

    const pending = await h.iamSmartStatus(draft, started.requestId);
    const phone = await h.phone(started.digest, 'approve');
    const signed = await h.iamSmartStatus(draft, started.requestId);
    const again = await h.iamSmartStatus(draft, started.requestId);
    const row = await requestRow(started.requestId);

    expect(pending.status).toBe(200);
    expect(pending.body.data).toEqual({ status: 'pending' });
    expect(phone.body.data).toEqual({ code: 'D00000' });
    expect(signed.status).toBe(200);
    expect(signed.body.data).toEqual({ status: 'signed', reference: started.requestId });
    expect(again.body.data).toEqual(signed.body.data);
    expect(row.status).toBe('signed');
    const signer = row.signer as { method: string; signature: string; hash: string };
    expect(signer.method).toBe('iamsmart');
    expect(signer.hash).toBe(started.digest);
    expect(await h.iamSmart.verifySignature(started.digest, signer.signature)).toBe(true);
  });

  it.each<[PhoneAction, { status: string; code?: string }]>([
    ['no-signing-function', { status: 'failed', code: 'D70004' }],
    ['other-hkic', { status: 'failed', code: 'D70005' }],
    ['decline', { status: 'cancelled' }],
  ])('answers the phone’s %s with %o', async (action, expected) => {
    const draft = await h.readyDraft();
    const started = await h.startIamSmart(draft);

    const phone = await h.phone(started.digest, action);
    const status = await h.iamSmartStatus(draft, started.requestId);

    expect(phone.status).toBe(200);
    expect(status.status).toBe(200);
    expect(status.body.data).toEqual(expected);
    expect((await requestRow(started.requestId)).status).toBe(expected.status);
  });

  it('answers expired once the request’s two minutes have passed, and the phone can no longer sign it', async () => {
    const draft = await h.readyDraft();
    const started = await h.startIamSmart(draft);
    const [pending] = (
      await h.call<{ txId: string; hash: string }[]>('GET', '/api/dev/iamsmart')
    ).body.data.filter((p) => p.hash === started.digest);
    h.clock.advance({ seconds: 119 });
    const before = await h.iamSmartStatus(draft, started.requestId);
    h.clock.advance({ seconds: 1 });

    const after = await h.iamSmartStatus(draft, started.requestId);
    const phone = await h.call('POST', `/api/dev/iamsmart/${pending?.txId ?? 'none'}`, {
      body: { action: 'approve' },
    });

    expect(before.body.data).toEqual({ status: 'pending' });
    expect(after.body.data).toEqual({ status: 'expired' });
    expect(phone.status).toBe(404);
    expect((await h.iamSmartStatus(draft, started.requestId)).body.data).toEqual({ status: 'expired' });
  });

  it('cancels a pending request with DELETE (204): it answers cancelled and the phone can no longer sign it', async () => {
    const draft = await h.readyDraft();
    const started = await h.startIamSmart(draft);
    const pending = (
      await h.call<{ txId: string; hash: string }[]>('GET', '/api/dev/iamsmart')
    ).body.data.find((p) => p.hash === started.digest);

    const cancelled = await h.call('DELETE', signingPath(draft, `iamsmart/${started.requestId}`), {
      token: draft.token,
    });
    const status = await h.iamSmartStatus(draft, started.requestId);
    const phone = await h.call('POST', `/api/dev/iamsmart/${pending?.txId ?? 'none'}`, {
      body: { action: 'approve' },
    });

    expect(pending).toBeDefined();
    expect(cancelled.status).toBe(204);
    expect(status.body.data).toEqual({ status: 'cancelled' });
    expect(phone.status).toBe(404);
  });

  it('answers 404 for another draft’s request id, and 400 for an id of the wrong shape', async () => {
    const mine = await h.readyDraft();
    const other = await h.readyDraft();
    const started = await h.startIamSmart(other);

    const read = await h.iamSmartStatus(mine, started.requestId);
    const cancel = await h.call('DELETE', signingPath(mine, `iamsmart/${started.requestId}`), {
      token: mine.token,
    });
    const malformed = await h.iamSmartStatus(mine, 'not-an-id');

    expect(read.status).toBe(404);
    expect(read.body.meta).toEqual({
      code: 'NOT_FOUND',
      message: 'This signing request does not exist or has ended. Please start signing again.',
    });
    expect(cancel.status).toBe(404);
    expect(malformed.status).toBe(400);
    expect((await h.iamSmartStatus(other, started.requestId)).body.data).toEqual({ status: 'pending' });
  });

  it('refuses another draft’s token with 403 and no token with 401', async () => {
    const mine = await h.readyDraft();
    const other = await h.newDraft();

    const forbidden = await h.call('POST', signingPath(mine, 'iamsmart'), { token: other.token });
    const anonymous = await h.call('POST', signingPath(mine, 'iamsmart'));

    expect(forbidden.status).toBe(403);
    expect(anonymous.status).toBe(401);
  });
});

describe('signing with an e-Cert', () => {
  let draft: ReadyDraft;
  let content: string;

  beforeAll(async () => {
    draft = await readyForEcert();
    content = (await prepareEcert(draft)).body.data.content;
  });

  const sign = (text: string, signer: TestSigner) => signDetached(new TextEncoder().encode(text), signer);

  it('answers the digest to sign as the text to sign, the same on a second visit', async () => {
    const other = await readyForEcert();

    const first = await prepareEcert(other);
    const second = await prepareEcert(other);

    expect(first.status).toBe(200);
    expect(first.body.data.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(first.body.data.content).toBe(first.body.data.digest);
    expect(second.body.data).toEqual(first.body.data);
  });

  it.each<[string, string, (pki: ApplicationHarness['pki']) => TestSigner, 'own' | 'other']>([
    ['a signature over another text', 'bad-signature', (pki) => pki.signers.valid, 'other'],
    ['an expired certificate', 'expired', (pki) => pki.signers.expired, 'own'],
    ['a revoked certificate', 'revoked', (pki) => pki.signers.revoked, 'own'],
    ['a certificate of another CA', 'untrusted', (pki) => pki.signers.untrusted, 'own'],
    ['another person’s certificate', 'name-mismatch', (pki) => pki.signers.otherPerson, 'own'],
  ])('refuses %s with 422 ECERT_REJECTED (%s)', async (_what, reason, signerOf, text) => {
    const p7s = await sign(text === 'own' ? content : `${content}0`, signerOf(h.pki));

    const res = await uploadSignature(draft, p7s);

    expect(res.status).toBe(422);
    expect(res.body.meta.code).toBe('ECERT_REJECTED');
    expect(res.body.data).toEqual({ reason });
  });

  it('refuses a file that is not a signature with 422 ECERT_REJECTED (unreadable), in English and Chinese', async () => {
    const english = await uploadSignature(draft, new Uint8Array([0x30, 0x82, 0x01, 0x00, 1, 2, 3, 4, 5]));
    const form = new FormData();
    form.append('signature', new Blob(['not a signature at all']), 'signature.p7s');
    const chinese = await h.call('POST', `${signingPath(draft, 'ecert')}?lang=tc`, {
      token: draft.token,
      body: form,
    });

    expect(english.status).toBe(422);
    expect(english.body).toEqual({
      meta: {
        code: 'ECERT_REJECTED',
        message:
          'The file is not an e-Cert signature (PKCS #7 / CMS). Upload the .p7s file your signing software made.',
      },
      data: { reason: 'unreadable' },
    });
    expect(chinese.status).toBe(422);
    expect(chinese.body.meta.message).toBe(
      '此檔案不是電子證書簽署（PKCS #7 / CMS）。請上載簽署軟件製作的 .p7s 檔案。',
    );
  });

  it('answers 400 without a signature file and 415 for a body that is not multipart', async () => {
    const form = new FormData();
    form.append('note', 'no file');

    const noFile = await h.call('POST', signingPath(draft, 'ecert'), { token: draft.token, body: form });
    const json = await h.call('POST', signingPath(draft, 'ecert'), {
      token: draft.token,
      body: { signature: 'x' },
    });

    expect(noFile.status).toBe(400);
    expect(noFile.body).toEqual({
      meta: { code: 'BAD_REQUEST', message: 'Choose the signature file (.p7s) made with your e-Cert.' },
      data: {
        errors: [{ path: 'signature', message: 'Choose the signature file (.p7s) made with your e-Cert.' }],
      },
    });
    expect(json.status).toBe(415);
  });

  it('answers 413 for a signature file over 64 KB, and the connection serves the next request', async () => {
    const res = await uploadSignature(draft, new Uint8Array(65 * 1024).fill(0x41));
    const next = await prepareEcert(draft);

    expect(res.status).toBe(413);
    expect(res.body.meta).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The signature file is too large (at most 64 KB). Upload the .p7s signature file only.',
    });
    expect(next.status).toBe(200);
  });

  it('answers 409 SIGNING_OUTDATED for a signature made before an answer changed', async () => {
    const changed = await readyForEcert();
    const prepared = await prepareEcert(changed);
    const p7s = await sign(prepared.body.data.content, h.pki.signers.valid);
    await h.save(changed, { ...changed.answers, orgTelephone: '2999 8888' });

    const res = await uploadSignature(changed, p7s);

    expect(res.status).toBe(409);
    expect(res.body.meta).toEqual({
      code: 'SIGNING_OUTDATED',
      message: 'The application or its documents changed after signing started. Please sign again.',
    });
  });

  it('answers 404 for a signature uploaded before the text to sign was asked for', async () => {
    const fresh = await readyForEcert();

    const res = await uploadSignature(fresh, await sign('0'.repeat(64), h.pki.signers.valid));

    expect(res.status).toBe(404);
    expect(res.body.meta.code).toBe('NOT_FOUND');
  });

  it('accepts the applicant’s own valid signature over the text (DER or PEM) and answers its reference', async () => {
    const mine = await readyForEcert();
    const pem = await readyForEcert();
    const prepared = await prepareEcert(mine);
    const preparedPem = await prepareEcert(pem);

    const res = await uploadSignature(mine, await sign(prepared.body.data.content, h.pki.signers.valid));
    const resPem = await uploadSignature(
      pem,
      toPem('PKCS7', await sign(preparedPem.body.data.content, h.pki.signers.valid)),
    );
    const row = await requestRow(res.body.data.reference);

    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ code: '200', message: 'Your e-Cert signature has been verified.' });
    expect(res.body.data).toEqual({ reference: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown });
    expect(resPem.status).toBe(200);
    expect(row.status).toBe('signed');
    expect(row.method).toBe('ecert');
    expect(row.digest).toBe(prepared.body.data.digest);
    expect(row.signer).toMatchObject({
      method: 'ecert',
      subject: h.pki.signers.valid.subject,
      serialNumber: h.pki.signers.valid.serialNumber,
    });
  });
});
