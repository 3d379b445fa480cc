import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, caseVersions, drafts, signingRequests, submissions } from '../../drizzle/schema';
import { formatHkDate } from '../../machines/rules/dates';
import { signDetached } from '../support/test-ca';
import { draftPath } from './application-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';
import { pdfText } from './seal-harness';

/**
 * The application PDF's last section, "Signed" / "簽署" (docs/decisions/041-letter-parts.md): the method,
 * the signer, the time in Hong Kong with the zone named, and the SHA-256 of what was signed, read back from
 * the PDF the case page downloads (its information), in English and in Traditional Chinese.
 */

let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

const flat = (s: string) => s.replace(/\s+/g, '');

/** The signing record the submission of `applicationNo` names. */
async function signingOf(applicationNo: string) {
  const [row] = await h.database.db
    .select({ digest: signingRequests.digest, completedAt: signingRequests.completedAt })
    .from(submissions)
    .innerJoin(signingRequests, eq(signingRequests.id, submissions.signingRequestId))
    .innerJoin(drafts, eq(drafts.id, submissions.draftId))
    .where(eq(drafts.applicationNo, applicationNo));
  expect(row?.digest).toMatch(/^[0-9a-f]{64}$/);
  expect(row?.completedAt).toBeInstanceOf(Date);
  return row!;
}

/** Submits a ready draft signed by `sign` and logs in to the case it became. */
async function submittedCase(
  sign: (draft: Awaited<ReturnType<CaseHarness['readyDraft']>>) => Promise<unknown>,
) {
  const draft = await h.readyDraft({ applicantNameEn: 'CHAN TAI MAN', applicantNameZh: '陳大文' });
  await sign(draft);
  expect((await h.submit(draft)).status).toBe(200);
  await h.messages.settled();
  const login = await h.login(draft.applicationNo, draft.email);
  const [app] = await h.database.db
    .select({ id: applications.id })
    .from(applications)
    .where(eq(applications.applicationNo, draft.applicationNo));
  expect(app).toBeDefined();
  return { id: app!.id, applicationNo: draft.applicationNo, token: login.token };
}

async function informationText(token: string, lang: string) {
  const pdf = await h.download(`/api/cases/current/information.pdf?lang=${lang}`, token);
  expect(pdf.status).toBe(200);
  return pdfText(pdf.bytes);
}

/** The text after the last "Signed" heading: the section is the PDF's last. */
function signedSection(text: string, heading: string): string {
  const at = flat(text).lastIndexOf(flat(heading));
  expect(at, 'the Signed heading').toBeGreaterThan(0);
  return flat(text).slice(at);
}

describe('the Signed section of the application PDF', () => {
  it('names iAM Smart, the applicant, the time (HKT) and the digest, in English and in Chinese', async () => {
    const c = await submittedCase((draft) => h.sign(draft));
    const signing = await signingOf(c.applicationNo);

    const en = signedSection(await informationText(c.token, 'en'), 'Signed / 簽署');
    for (const part of [
      'Method / 簽署方式',
      'iAM Smart',
      'Signer / 簽署人',
      'CHAN TAI MAN 陳大文',
      'Signed at / 簽署時間',
      `${formatHkDate(signing.completedAt!, 'en', true)} HKT`,
      'SHA-256 digest of what was signed / 所簽署內容的 SHA-256 摘要',
      signing.digest,
    ])
      expect(en).toContain(flat(part));

    const tc = signedSection(await informationText(c.token, 'tc'), 'Signed / 簽署');
    for (const part of [
      '「智方便」',
      'CHAN TAI MAN 陳大文',
      `${formatHkDate(signing.completedAt!, 'tc', true)}（香港時間）`,
      signing.digest,
    ])
      expect(tc).toContain(flat(part));
    expect(tc).not.toContain('HKT');

    const sc = signedSection(await informationText(c.token, 'sc'), 'Signed / 签署');
    expect(sc).toContain(flat('“智方便”'));
  });

  it('names the e-Cert and its holder', async () => {
    const c = await submittedCase(async (draft) => {
      const prepared = await h.call<{ content: string }>(
        'GET',
        `${draftPath(draft.applicationNo)}/signing/ecert`,
        {
          token: draft.token,
        },
      );
      const form = new FormData();
      const p7s = await signDetached(
        new TextEncoder().encode(prepared.body.data.content),
        h.pki.signers.valid,
      );
      form.append('signature', new Blob([p7s.slice()]), 'signature.p7s');
      const signed = await h.call('POST', `${draftPath(draft.applicationNo)}/signing/ecert`, {
        token: draft.token,
        body: form,
      });
      expect(signed.status).toBe(200);
    });
    const signing = await signingOf(c.applicationNo);
    const en = signedSection(await informationText(c.token, 'en'), 'Signed / 簽署');
    expect(en).toContain(flat('e-Cert (Hongkong Post)'));
    expect(en).toContain(flat('CHAN TAI MAN'));
    expect(en).not.toContain(flat('CHAN TAI MAN 陳大文'));
    expect(en).toContain(signing.digest);
  });

  it('says when the information printed is a later version than the one signed', async () => {
    const c = await submittedCase((draft) => h.sign(draft));
    const [{ answers } = { answers: {} }] = await h.database.db
      .select({ answers: drafts.answers })
      .from(drafts)
      .where(eq(drafts.applicationNo, c.applicationNo));
    await h.database.db.insert(caseVersions).values(
      [1, 2].map((version) => ({
        applicationId: c.id,
        version,
        answers: answers as Record<string, unknown>,
        reference: version === 1 ? c.applicationNo : `USI-${c.applicationNo}-1`,
        submittedBy: 'APPLICANT',
        createdAt: h.clock.now(),
      })),
    );
    const en = signedSection(await informationText(c.token, 'en'), 'Signed / 簽署');
    expect(en).toContain(
      flat(
        'The signature is of the application as submitted (version 1); the information above is version 2.',
      ),
    );
    const tc = signedSection(await informationText(c.token, 'tc'), 'Signed / 簽署');
    expect(tc).toContain(flat('以上資料為第 2 版'));
  });

  it('is not printed on a draft’s PDF, which is what is signed', async () => {
    const draft = await h.readyDraft();
    const pdf = await h.download(`${draftPath(draft.applicationNo)}/pdf`, draft.token);
    expect(pdf.status).toBe(200);
    expect(flat(pdfText(pdf.bytes))).not.toContain(flat('Signed / 簽署'));
  });
});
