import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseActions, caseSignings, caseVersions } from '../../drizzle/schema';
import { landscapeA3, type PdfBytes, uniqueLandscapeA4 } from '../support/pdf-corpus';
import { signDetached, type TestSigner } from '../support/test-ca';
import { type Reply } from './application-harness';
import { CASE_SIGNING, signFollowUp, startFollowUpSigning } from './case-signing-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';
import type { IamSmartStarted, SigningStatusData } from '../../api/modules/signing/signing.types';

/**
 * Signing a follow-up on a case (Submit Supporting Document): iAM Smart through the sandbox and e-Cert
 * with real CMS signatures from the test CA, over the digest of the answers and files; the follow-up is
 * refused unsigned (409 SIGNATURE_REQUIRED) or signed over something else (409 SIGNING_OUTDATED). Who may
 * sign, bad bodies, another case's files and requests. Real Postgres.
 */
let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

const ANSWERS = { documentType: 'other', description: 'Fire certificate' };

async function uploaded(token: string, pdf: () => Promise<PdfBytes> = uniqueLandscapeA4): Promise<number> {
  const form = new FormData();
  form.append('documentType', 'supportingDocument');
  form.append('forType', ANSWERS.documentType);
  form.append('file', new Blob([(await pdf()).slice()], { type: 'application/pdf' }), 'plan.pdf');
  const res = await h.call<{ id: number }>('POST', '/api/cases/current/uploads', { token, body: form });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const submit = (token: string, uploads: number[], signature?: string, answers = ANSWERS, lang = 'en') =>
  h.act(token, 'submitDocument', answers, { lang, rawBody: { answers, uploads, signature } });

/** An applicant's case whose information holds the applicant's HKIC and English name (as submitted). */
async function caseWithInformation() {
  const c = await h.loggedInCase('SUBMITTED', 'en');
  await h.database.db.insert(caseVersions).values({
    applicationId: c.id,
    version: 1,
    answers: { applicantHkic: 'A1234563', applicantNameEn: 'CHAN Tai Man' },
    reference: c.applicationNo,
    submittedBy: 'APPLICANT',
    createdAt: h.clock.now(),
  });
  return c;
}

const prepare = (token: string, uploads: number[], answers = ANSWERS) =>
  h.call<{ requestId: string; digest: string; content: string }>('POST', `${CASE_SIGNING}/ecert/prepare`, {
    token,
    body: { followUp: 'submitDocument', answers, uploads },
  });

async function ecert(token: string, requestId: string, content: string, signer: TestSigner, lang = 'en') {
  const p7s = await signDetached(new TextEncoder().encode(content), signer);
  const form = new FormData();
  form.append('signature', new Blob([new Uint8Array(p7s)]), 'signature.p7s');
  return h.call<{ reference: string }>('POST', `${CASE_SIGNING}/ecert?lang=${lang}`, {
    token,
    body: form,
    headers: { 'X-Signing-Request': requestId },
  });
}

const poll = (token: string, requestId: string) =>
  h.call<SigningStatusData>('GET', `${CASE_SIGNING}/iamsmart/${requestId}`, { token });

describe('signing Submit Supporting Document', () => {
  it("signs by iAM Smart with the HKIC of the case's information, then submits; the signature is recorded", async () => {
    const c = await caseWithInformation();
    const ids = [await uploaded(c.token), await uploaded(c.token)];
    const started = await h.call<IamSmartStarted>('POST', `${CASE_SIGNING}/iamsmart`, {
      token: c.token,
      body: { followUp: 'submitDocument', answers: ANSWERS, uploads: ids },
    });
    expect(started.status).toBe(201);
    const { requestId, digest, identificationCode, qrText, expiresAt } = started.body.data;
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect([identificationCode, qrText, expiresAt].every(Boolean)).toBe(true);
    expect((await poll(c.token, requestId)).body.data.status).toBe('pending');
    await h.phone(digest, 'approve');
    expect((await poll(c.token, requestId)).body.data).toEqual({ status: 'signed', reference: requestId });

    const [row] = await h.database.db
      .select()
      .from(caseSignings)
      .where(eq(caseSignings.requestId, requestId));
    expect(row?.manifest.split('\n').slice(0, 3)).toEqual([
      'BD-FOLLOW-UP-MANIFEST/1',
      `application ${c.applicationNo}`,
      'follow-up submitDocument',
    ]);
    expect(row?.manifest.match(/^document supportingDocument [0-9a-f]{64}$/gm)).toHaveLength(2);

    const res = await submit(c.token, ids, requestId);
    expect(res.status).toBe(200);
    const [action] = await h.database.db
      .select()
      .from(caseActions)
      .where(eq(caseActions.applicationId, c.id));
    const [after] = await h.database.db
      .select()
      .from(caseSignings)
      .where(eq(caseSignings.requestId, requestId));
    expect(after?.actionId).toBe(action?.id);
  });

  it('signs by e-Cert (a CMS signature over the digest text), then submits', async () => {
    const c = await caseWithInformation();
    const ids = [await uploaded(c.token)];
    const prepared = await prepare(c.token, ids);
    expect(prepared.status).toBe(200);
    expect(prepared.body.data.content).toBe(prepared.body.data.digest);
    const signed = await ecert(
      c.token,
      prepared.body.data.requestId,
      prepared.body.data.content,
      h.pki.signers.valid,
    );
    expect(signed.status).toBe(200);
    expect(signed.body.data.reference).toBe(prepared.body.data.requestId);
    expect((await submit(c.token, ids, prepared.body.data.requestId)).status).toBe(200);
  });

  it('refuses an e-Cert of someone else, naming the applicant (en, tc), and a signature that is not a CMS', async () => {
    const c = await caseWithInformation();
    const ids = [await uploaded(c.token)];
    const { requestId, content } = (await prepare(c.token, ids)).body.data;
    const en = await ecert(c.token, requestId, content, h.pki.signers.otherPerson);
    expect(en.status).toBe(422);
    expect(en.body.meta.code).toBe('SIGNER_MISMATCH');
    expect(en.body.meta.message).toBe(
      'The signature is not in the name of CHAN Tai Man, who must sign this submission. Sign with your own iAM Smart or e-Cert.',
    );
    const tc = await ecert(c.token, requestId, content, h.pki.signers.otherPerson, 'tc');
    expect(tc.body.meta.message).toBe(
      '簽署人並非須簽署此提交的 CHAN Tai Man。請以你本人的「智方便」或電子證書簽署。',
    );
    const form = new FormData();
    form.append('signature', new Blob([new Uint8Array([1, 2, 3])]), 'signature.p7s');
    const junk = await h.call('POST', `${CASE_SIGNING}/ecert`, {
      token: c.token,
      body: form,
      headers: { 'X-Signing-Request': requestId },
    });
    expect(junk.status).toBe(422);
    expect(junk.body.meta.code).toBe('ECERT_REJECTED');
    expect(junk.body.data).toEqual({ reason: 'unreadable' });
    expect((await submit(c.token, ids, requestId)).body.meta.code).toBe('SIGNING_OUTDATED');
  });

  it('refuses a submission without a signature (409 SIGNATURE_REQUIRED, en and sc)', async () => {
    const c = await caseWithInformation();
    const ids = [await uploaded(c.token)];
    const en = await submit(c.token, ids);
    expect(en.status).toBe(409);
    expect(en.body.meta.code).toBe('SIGNATURE_REQUIRED');
    expect(en.body.meta.message).toBe('Please sign this submission before sending it.');
    const sc = await submit(c.token, ids, undefined, ANSWERS, 'sc');
    expect(sc.body.meta.message).toBe('请先签署，然后提交。');
    // A signing of another case is no signing of this one.
    const other = await caseWithInformation();
    const theirs = await signFollowUp(h, other.token, {
      followUp: 'submitDocument',
      answers: ANSWERS,
      uploads: [await uploaded(other.token)],
    });
    expect((await submit(c.token, ids, theirs)).body.meta.code).toBe('SIGNATURE_REQUIRED');
    expect(await h.database.db.select().from(caseActions).where(eq(caseActions.applicationId, c.id))).toEqual(
      [],
    );
  });

  it('refuses a signature over other answers or other files (409 SIGNING_OUTDATED), and one not finished', async () => {
    const c = await caseWithInformation();
    // Another file (its SHA-256 differs: the manifest names files by content).
    const [a, b] = [await uploaded(c.token), await uploaded(c.token, landscapeA3)];
    const signature = await signFollowUp(h, c.token, {
      followUp: 'submitDocument',
      answers: ANSWERS,
      uploads: [a],
    });
    const changed = await submit(c.token, [a], signature, { ...ANSWERS, description: 'Fire certificate 2' });
    expect(changed.status).toBe(409);
    expect(changed.body.meta.code).toBe('SIGNING_OUTDATED');
    expect(changed.body.meta.message).toContain('changed after you signed');
    expect((await submit(c.token, [a, b], signature)).body.meta.code).toBe('SIGNING_OUTDATED');
    expect((await submit(c.token, [b], signature)).body.meta.code).toBe('SIGNING_OUTDATED');
    const pending = await startFollowUpSigning(h, c.token, {
      followUp: 'submitDocument',
      answers: ANSWERS,
      uploads: [b],
    });
    expect((await submit(c.token, [b], pending.body.data.requestId)).body.meta.code).toBe('SIGNING_OUTDATED');
    // The signed one, as signed, goes through; then it is used and serves no other follow-up.
    expect((await submit(c.token, [a], signature)).status).toBe(200);
  });

  it("refuses another case's file (403), an unknown one (400), and answers under answers.<field>", async () => {
    const mine = await caseWithInformation();
    const theirs = await caseWithInformation();
    const body = (uploads: number[], answers: Record<string, unknown> = ANSWERS) => ({
      followUp: 'submitDocument',
      answers,
      uploads,
    });
    const foreign = await startFollowUpSigning(h, mine.token, body([await uploaded(theirs.token)]));
    expect(foreign.status).toBe(403);
    const unknown = await startFollowUpSigning(h, mine.token, body([999_999_999]));
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.data)).toContain('uploads');
    const none = await startFollowUpSigning(h, mine.token, body([]));
    expect(none.status).toBe(400);
    const blank = await startFollowUpSigning(
      h,
      mine.token,
      body([await uploaded(mine.token)], { documentType: 'other' }),
    );
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toContain('answers.description');
  });

  it('knows only follow-ups with a sign step: unknown 404, one without signing 400', async () => {
    const c = await caseWithInformation();
    const unknown = await startFollowUpSigning(h, c.token, { followUp: 'noSuchForm', answers: {} });
    expect(unknown.status).toBe(404);
    const unsigned = await startFollowUpSigning(h, c.token, { followUp: 'withdrawApplication', answers: {} });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.meta.message).toBe(
      'This service does not need a signature: submit it without signing.',
    );
  });

  it('answers bad bodies with a 4xx, never a 500', async () => {
    const c = await caseWithInformation();
    const id = await uploaded(c.token);
    const calls: [string, Promise<Reply>, number][] = [
      ['array body', h.call('POST', `${CASE_SIGNING}/iamsmart`, { token: c.token, body: [] }), 400],
      [
        'no answers',
        h.call('POST', `${CASE_SIGNING}/iamsmart`, { token: c.token, body: { followUp: 'submitDocument' } }),
        400,
      ],
      [
        'uploads not numbers',
        h.call('POST', `${CASE_SIGNING}/ecert/prepare`, {
          token: c.token,
          body: { followUp: 'submitDocument', answers: ANSWERS, uploads: ['x'] },
        }),
        400,
      ],
      [
        'bad follow-up key',
        h.call('POST', `${CASE_SIGNING}/ecert/prepare`, {
          token: c.token,
          body: { followUp: '../x', answers: ANSWERS, uploads: [id] },
        }),
        400,
      ],
      [
        'bad hkic',
        h.call('POST', `${CASE_SIGNING}/iamsmart`, {
          token: c.token,
          body: { followUp: 'submitDocument', answers: ANSWERS, uploads: [id], hkic: '?' },
        }),
        400,
      ],
      ['bad request id', h.call('GET', `${CASE_SIGNING}/iamsmart/nope`, { token: c.token }), 400],
      [
        'unknown request id',
        h.call('GET', `${CASE_SIGNING}/iamsmart/${'a'.repeat(32)}`, { token: c.token }),
        404,
      ],
      [
        'cancel unknown',
        h.call('DELETE', `${CASE_SIGNING}/iamsmart/${'a'.repeat(32)}`, { token: c.token }),
        404,
      ],
      [
        'ecert without file',
        h.call('POST', `${CASE_SIGNING}/ecert`, {
          token: c.token,
          headers: { 'X-Signing-Request': 'a'.repeat(32) },
        }),
        415,
      ],
      ['ecert without request', h.call('POST', `${CASE_SIGNING}/ecert`, { token: c.token }), 400],
      [
        'bad signature field',
        h.act(c.token, 'submitDocument', ANSWERS, {
          rawBody: { answers: ANSWERS, uploads: [id], signature: 'x' },
        }),
        400,
      ],
    ];
    for (const [name, call, want] of calls) expect([name, (await call).status]).toEqual([name, want]);
  });

  it("answers 404 for another case's request, and cancels its own (204)", async () => {
    const mine = await caseWithInformation();
    const theirs = await caseWithInformation();
    const started = await startFollowUpSigning(h, theirs.token, {
      followUp: 'submitDocument',
      answers: ANSWERS,
      uploads: [await uploaded(theirs.token)],
    });
    const { requestId } = started.body.data;
    expect((await poll(mine.token, requestId)).status).toBe(404);
    expect(
      (await h.call('DELETE', `${CASE_SIGNING}/iamsmart/${requestId}`, { token: mine.token })).status,
    ).toBe(404);
    expect(
      (await h.call('DELETE', `${CASE_SIGNING}/iamsmart/${requestId}`, { token: theirs.token })).status,
    ).toBe(204);
    expect((await poll(theirs.token, requestId)).body.data.status).toBe('cancelled');
  });
});

describe('who signs', () => {
  it('an applicant whose case holds no HKIC gives one; an AP must give theirs (422 HKIC_REQUIRED)', async () => {
    const c = await h.loggedInCase('SUBMITTED', 'en');
    const body = { followUp: 'submitDocument', answers: ANSWERS, uploads: [await uploaded(c.token)] };
    const without = await h.call('POST', `${CASE_SIGNING}/iamsmart`, { token: c.token, body });
    expect(without.status).toBe(422);
    expect(without.body.meta.code).toBe('HKIC_REQUIRED');
    expect((await startFollowUpSigning(h, c.token, body)).status).toBe(201);

    const app = await h.addApplication({ status: 'LOR_ISSUED' });
    const ap = await h.sessionOn(app.id, 'ap');
    const apBody = { followUp: 'submitDocument', answers: ANSWERS, uploads: [await uploaded(ap)] };
    const needs = await h.call('POST', `${CASE_SIGNING}/iamsmart?lang=tc`, { token: ap, body: apBody });
    expect(needs.status).toBe(422);
    expect(needs.body.meta.code).toBe('HKIC_REQUIRED');
    expect(needs.body.meta.message).toBe('請輸入你的香港身份證號碼以「智方便」簽署，或以電子證書簽署。');
    const en = await h.call('POST', `${CASE_SIGNING}/iamsmart`, { token: ap, body: apBody });
    expect(en.body.meta.message).toBe(
      'Enter your Hong Kong Identity Card number to sign with iAM Smart, or sign with your e-Cert.',
    );
    // Their own HKIC with a wrong check digit: refused by the form's rule before iAM Smart is asked.
    const wrong = await h.call('POST', `${CASE_SIGNING}/iamsmart?lang=tc`, {
      token: ap,
      body: { ...apBody, hkic: 'A1234567' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.meta).toEqual({ code: 'HKICNO', message: '請輸入有效的香港身份證號碼。' });
    const signature = await signFollowUp(h, ap, apBody);
    const res = await submit(ap, apBody.uploads, signature);
    expect(res.status).toBe(200);
  });

  it("an AP's e-Cert must be in the appointee's name", async () => {
    const app = await h.addApplication({ status: 'LOR_ISSUED', applicantNameEn: 'LEE Siu Ming' });
    const rse = await h.sessionOn(app.id, 'rse');
    const ids = [await uploaded(rse)];
    const { requestId, content } = (await prepare(rse, ids)).body.data;
    const other = await ecert(rse, requestId, content, h.pki.signers.otherPerson);
    expect(other.body.meta.code).toBe('SIGNER_MISMATCH');
    expect(other.body.meta.message).toContain('CHAN TAI MAN');
    expect((await ecert(rse, requestId, content, h.pki.signers.valid)).status).toBe(200);
    expect((await submit(rse, ids, requestId)).status).toBe(200);
  });

  it('the applicant, AP and RSE of the case may call the signing endpoints; no session is 401', async () => {
    const app = await h.addApplication({ status: 'LOR_ISSUED', applicantNameEn: 'CHAN Tai Man' });
    const applicant = (await h.login(app.applicationNo, app.email)).token;
    const roles: [string, string | undefined, number][] = [
      ['applicant', applicant, 201],
      ['ap', await h.sessionOn(app.id, 'ap'), 201],
      ['rse', await h.sessionOn(app.id, 'rse'), 201],
    ];
    for (const [name, token, want] of roles) {
      const res = await startFollowUpSigning(h, token!, {
        followUp: 'submitDocument',
        answers: ANSWERS,
        uploads: [await uploaded(token!)],
      });
      expect([name, res.status]).toEqual([name, want]);
      const prepared = await prepare(token!, [await uploaded(token!)]);
      expect([name, prepared.status]).toEqual([name, 200]);
      expect([name, (await poll(token!, res.body.data.requestId)).status]).toEqual([name, 200]);
    }
    const body = { followUp: 'submitDocument', answers: ANSWERS, uploads: [1] };
    const anonymous: [string, Promise<Reply>][] = [
      ['iamsmart', h.call('POST', `${CASE_SIGNING}/iamsmart`, { body })],
      ['poll', h.call('GET', `${CASE_SIGNING}/iamsmart/${'a'.repeat(32)}`)],
      ['cancel', h.call('DELETE', `${CASE_SIGNING}/iamsmart/${'a'.repeat(32)}`)],
      ['prepare', h.call('POST', `${CASE_SIGNING}/ecert/prepare`, { body })],
      [
        'ecert',
        h.call('POST', `${CASE_SIGNING}/ecert`, { headers: { 'X-Signing-Request': 'a'.repeat(32) } }),
      ],
    ];
    for (const [name, call] of anonymous) expect([name, (await call).status]).toEqual([name, 401]);
  });
});
