import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationHistory, applications, auditEvents, selfCertifications } from '../../drizzle/schema';
import { formByKey } from '../../machines/forms';
import { MINOR_WORKS_MAX_ROWS } from '../../machines/rules/minor-works';
import { landscapeA4 } from '../support/pdf-corpus';
import { signDetached } from '../support/test-ca';
import { type ApplicationHarness, draftPath, startApplicationHarness } from './application-harness';
import { casesWithCertifier, insertAcceptedAppointment } from './accepted-appointment';

/**
 * Self-certification (issue 16) over real HTTP and Postgres: the five forms drafted, signed by the
 * certifier named in Part B (iAM Smart sandbox; e-Cert's name rule is the applicant's, signing.test.ts)
 * and submitted, linked to the case they certify; and every refusal a 400 or 422, never a 500: a case
 * that does not exist or is of another type, a letter dated in the future, an expired registration, an
 * empty row, a duplicate row number, an unknown minor works item, too many rows.
 */

const FORMS = ['scs1', 'scs2', 'scc1', 'scc2', 'scn1'] as const;
/** A case of a matching form for each self-certification, and one of another type. */
const CASES: Record<(typeof FORMS)[number], { no: string; formCode: string }> = {
  scs1: { no: 'A2-2026-910001', formCode: 'A2' },
  scs2: { no: 'E2-2026-910002', formCode: 'E2' },
  scc1: { no: 'CCCAI-MH3-2026-910003', formCode: 'CCCAI-MH3' },
  scc2: { no: 'F2-2026-910004', formCode: 'F2' },
  scn1: { no: 'G2-2026-910005', formCode: 'G2' },
};

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness({ formKey: 'scs1' });
  const now = h.clock.now();
  // Each case has its Letter of Requirements and the certifier of the forms' answers (AP(A) 1234)
  // appointed: a self-certification needs both (docs/flows/case-lifecycle.md).
  await casesWithCertifier(
    h.database.db,
    now,
    Object.values(CASES).map((c) => ({
      ...c,
      status: 'LOR_ISSUED',
      email: `${c.no.toLowerCase()}@example.hk`,
    })),
  );
});

afterAll(async () => {
  await h?.close();
});

const signingStart = (draft: { applicationNo: string; token: string }, lang = 'en') =>
  h.call('POST', `${draftPath(draft.applicationNo)}/signing/iamsmart`, {
    token: draft.token,
    headers: { 'accept-language': lang === 'tc' ? 'zh-HK' : lang === 'sc' ? 'zh-CN' : 'en' },
  });

describe('SCS-1 end to end through the API', () => {
  it('is signed by the certifier, submitted, linked to its case and downloadable', async () => {
    const draft = await h.readyDraft({ caseApplicationNo: 'a2-2026-910001' });
    await h.sign(draft);
    const res = await h.submit(draft);
    expect(res.status).toBe(200);

    const [app] = await h.database.db
      .select()
      .from(applications)
      .where(eq(applications.applicationNo, draft.applicationNo));
    expect(app).toMatchObject({
      formCode: 'SCS-1',
      applicationType: 'NEWSCH',
      applicantNameEn: 'WONG Ka Ming',
    });
    const links = await h.database.db
      .select()
      .from(selfCertifications)
      .where(eq(selfCertifications.applicationId, app?.id ?? -1));
    const [certified] = await h.database.db
      .select()
      .from(applications)
      .where(eq(applications.applicationNo, 'A2-2026-910001'));
    expect(links).toEqual([
      expect.objectContaining({
        caseApplicationId: certified?.id,
        certifierRegistrationNo: 'AP(A) 1234',
        certifierIdentity: 'ap',
        lorReference: 'BD 2/9041/26',
      }) as unknown,
    ]);

    // The certified case records it: a history row by the AP, numbered by the self-certification, an
    // audit event, and a notice to its applicant.
    const rows = await h.database.db
      .select()
      .from(applicationHistory)
      .where(eq(applicationHistory.applicationId, certified?.id ?? -1));
    expect(rows.map((r) => [r.documentType, r.submittedBy, r.reference, r.status])).toEqual([
      ['SELF_CERTIFICATION', 'AP', draft.applicationNo, 'LOR_ISSUED'],
    ]);
    const audit = await h.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, certified?.id ?? -1));
    expect(audit.map((a) => [a.event, a.actor, a.reference])).toEqual([
      ['selfCertification.submit', 'ap', draft.applicationNo],
    ]);
    await h.messages.settled();
    const notice = h.smtp.mails.find((m) => m.to.includes('a2-2026-910001@example.hk'));
    expect(notice?.subject).toBe('Self-certification received: A2-2026-910001');
    expect(notice?.text).toContain(draft.applicationNo);

    const files = await h.call<{ files: { id: string; url: string }[] }>(
      'POST',
      `${draftPath(draft.applicationNo)}/submission/links`,
      { token: draft.token },
    );
    const pdf = await h.download(files.body.data.files.find((f) => f.id === 'application')?.url ?? '');
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
  });
});

describe('the case a self-certification certifies', () => {
  it('refuses a case that does not exist with 400 at the field, in the caller’s language', async () => {
    const draft = await h.readyDraft({ caseApplicationNo: 'A2-2026-999999' });
    const en = await signingStart(draft);
    const tc = await signingStart(draft, 'tc');
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({
      meta: { code: 'BAD_REQUEST', message: 'There is no application with this number' },
      data: { errors: [{ path: 'answers.caseApplicationNo' }] },
    });
    expect(tc.status).toBe(400);
    expect(tc.body.meta.message).toBe('沒有此編號的申請');
  });

  it('refuses a case that is no longer open (withdrawn), with the reason in the caller’s language', async () => {
    await h.database.db
      .update(applications)
      .set({ status: 'WITHDRAWN' })
      .where(eq(applications.applicationNo, CASES.scs1.no));
    try {
      const draft = await h.readyDraft({ caseApplicationNo: CASES.scs1.no });
      const res = await signingStart(draft, 'tc');
      expect(res.status).toBe(400);
      expect(res.body.meta.message).toBe('此申請已不再處理中（已撤回、拒絕或結束）：不可提交自行核證');
    } finally {
      await h.database.db
        .update(applications)
        .set({ status: 'LOR_ISSUED' })
        .where(eq(applications.applicationNo, CASES.scs1.no));
    }
  });

  it('refuses a case of another type (an E2 case for SCS-1)', async () => {
    const draft = await h.readyDraft({ caseApplicationNo: CASES.scs2.no });
    const res = await signingStart(draft, 'sc');
    expect(res.status).toBe(400);
    expect(res.body.meta.message).toBe('此申请不可用本表格核证：请选用其类别的自行核证表格');
  });
});

describe('the case rules of a self-certification (docs/flows/case-lifecycle.md)', () => {
  it('refuses a case without a Letter of Requirements, and an AP who is not appointed, in three languages', async () => {
    await h.database.db
      .update(applications)
      .set({ status: 'UNDER_EXAMINATION' })
      .where(eq(applications.applicationNo, CASES.scs1.no));
    try {
      const draft = await h.readyDraft({ caseApplicationNo: CASES.scs1.no });
      const messages = [];
      for (const lang of ['en', 'sc', 'tc']) {
        const res = await signingStart(draft, lang);
        expect(res.status).toBe(400);
        expect(res.body.data).toMatchObject({ errors: [{ path: 'answers.caseApplicationNo' }] });
        messages.push(res.body.meta.message);
      }
      expect(messages).toEqual([
        'No Letter of Requirements has been issued for this application yet: there is nothing to self-certify against.',
        '此申请尚未获发规定事项函件，因此未能提交自行核证。',
        '此申請尚未獲發規定事項函件，因此未能提交自行核證。',
      ]);
    } finally {
      await h.database.db
        .update(applications)
        .set({ status: 'LOR_ISSUED' })
        .where(eq(applications.applicationNo, CASES.scs1.no));
    }
    // An AP appointed to no case at all: refused at the field, not attached to the case.
    const stranger = await h.readyDraft({ caseApplicationNo: CASES.scs1.no, certifierRegNo: 'AP(S) 7777' });
    const refused = await signingStart(stranger, 'tc');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      meta: { message: '核證人必須為本個案獲委任的認可人士或註冊結構工程師' },
      data: { errors: [{ path: 'answers.certifierRegNo' }] },
    });
  });
});

describe('a case with an active appointment (issue 12)', () => {
  it('is certified only by its appointee: another AP is refused at the field, the appointee is not', async () => {
    const now = h.clock.now();
    const [found] = await h.database.db
      .insert(applications)
      .values({
        applicationNo: 'A2-2026-910009',
        formCode: 'A2',
        applicationType: 'NEWSCH',
        status: 'LOR_ISSUED',
        applicantNameEn: 'CHAN Tai Man',
        language: 'en',
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: applications.id });
    await insertAcceptedAppointment(h.database.db, {
      applicationId: found!.id,
      identity: 'ap',
      nameEn: 'LEE Ka Yan',
      registrationNumber: 'AP(E) 2345',
      email: 'ap.lee@example.hk',
      mobile: '61234567',
      expiryDate: '2030-12-31',
      language: 'en',
      invitedAt: now,
      acceptedAt: now,
    });

    const other = await signingStart(await h.readyDraft({ caseApplicationNo: 'A2-2026-910009' }));
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({
      meta: { message: 'The certifier must be the AP or RSE appointed for this case' },
      data: { errors: [{ path: 'answers.certifierRegNo' }] },
    });

    const appointee = await h.readyDraft({
      caseApplicationNo: 'A2-2026-910009',
      certifierRegNo: 'ap(e) 2345',
      certifierIdentity: 'ap',
    });
    const accepted = await signingStart(appointee);
    expect(accepted.status).toBe(201);
  });
});

describe('answers the full rules refuse at signing (422, naming the field)', () => {
  it.each([
    ['a Letter of Requirements dated in the future', { lorDate: '2999-01-01' }, 'lorDate'],
    [
      'a certifier whose registration has expired',
      { certifierRegExpiry: '2021-06-30' },
      'certifierRegExpiry',
    ],
    ['a registration number of the other register', { certifierIdentity: 'rse' }, 'certifierRegNo'],
    ['a BD reference that is not one', { lorReference: 'our letter' }, 'lorReference'],
    [
      'an empty row',
      {
        minorWorks: [
          { no: '1', item: '3.5', description: 'Frame' },
          { no: '', item: '' },
        ],
      },
      'minorWorks',
    ],
    [
      'a duplicate row number',
      {
        minorWorks: [
          { no: '1', item: '3.5', description: 'Frame' },
          { no: '1', item: '3.6', description: 'Canopy' },
        ],
      },
      'minorWorks',
    ],
    [
      'an unknown minor works item',
      { minorWorks: [{ no: '1', item: '3.99', description: 'Frame' }] },
      'minorWorks',
    ],
  ])('%s', async (_what, overrides, field) => {
    const draft = await h.readyDraft({ caseApplicationNo: CASES.scs1.no, ...overrides });
    const res = await signingStart(draft);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ meta: { code: 'APPLICATION_INCOMPLETE' }, data: { fields: [field] } });
  });
});

describe('drafts of a self-certification', () => {
  it(`refuses more than ${MINOR_WORKS_MAX_ROWS} minor works rows with 400, and a row that is not an object`, async () => {
    const draft = await h.newDraft(h.completeAnswers({ caseApplicationNo: CASES.scs1.no }));
    const rows = Array.from({ length: MINOR_WORKS_MAX_ROWS + 1 }, (_, i) => ({ no: String(i + 1) }));
    const many = await h.save(draft, { ...draft.answers, minorWorks: rows });
    const bad = await h.save(draft, { ...draft.answers, minorWorks: ['row'] });
    const typed = await h.save(draft, { ...draft.answers, minorWorks: { no: 1 } });
    expect(many.status).toBe(400);
    expect(many.body.meta.message).toBe(`Minor Works can have at most ${MINOR_WORKS_MAX_ROWS} rows`);
    expect(bad.status).toBe(400);
    expect(typed.status).toBe(400);
  });

  it('saves a half-typed table as typed (formats are checked at signing)', async () => {
    const draft = await h.newDraft(h.completeAnswers({ caseApplicationNo: CASES.scs1.no }));
    const res = await h.save(draft, { ...draft.answers, minorWorks: [{ no: '1', item: '3.' }] });
    expect(res.status).toBe(200);
  });
});

/** A ready draft of another self-certification form on the same app: answers, email confirmed, documents. */
async function readyDraftOf(key: (typeof FORMS)[number]) {
  const form = formByKey(key);
  if (!form) throw new Error(`no form ${key}`);
  const answers: Record<string, unknown> = {
    ...h.completeAnswers(),
    ...form.example,
    caseApplicationNo: CASES[key].no,
  };
  answers.applicantEmail = `certifier.${key}.${process.pid}@example.hk`;
  const res = await h.call<{ applicationNo: string; token: string }>('POST', '/api/drafts', {
    body: { formKey: key, answers, step: 1, lang: 'en' },
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  const draft = { ...res.body.data, version: 1, answers, email: String(answers.applicantEmail) };
  await h.confirmEmail(draft);
  for (const d of form.documents.filter((doc) => doc.required)) {
    const up = await h.upload(draft, d.id, await landscapeA4(), `${d.id}.pdf`);
    if (up.status !== 201) throw new Error(`upload answered ${up.status}`);
  }
  return { draft, form };
}

describe.each(FORMS.filter((k) => k !== 'scs1'))('%s end to end through the API', (key) => {
  it('is signed by the certifier and submitted, linked to a case of its type', async () => {
    const { draft, form } = await readyDraftOf(key);
    await h.sign(draft);
    const res = await h.submit(draft);
    expect(res.status).toBe(200);
    const [app] = await h.database.db
      .select({ id: applications.id, formCode: applications.formCode })
      .from(applications)
      .where(eq(applications.applicationNo, draft.applicationNo));
    expect(app?.formCode).toBe(form.code);
    const links = await h.database.db
      .select()
      .from(selfCertifications)
      .where(eq(selfCertifications.applicationId, app?.id ?? -1));
    expect(links).toHaveLength(1);
  });
});

describe('signing with an e-Cert: the certifier named in Part B signs', () => {
  const ecertPath = (no: string) => `${draftPath(no)}/signing/ecert`;
  const upload = async (draft: { applicationNo: string; token: string }, p7s: Uint8Array) => {
    const form = new FormData();
    form.append('signature', new Blob([p7s.slice()]), 'signature.p7s');
    return h.call<{ reference: string }>('POST', ecertPath(draft.applicationNo), {
      token: draft.token,
      body: form,
    });
  };
  const contentOf = async (draft: { applicationNo: string; token: string }) =>
    (await h.call<{ content: string }>('GET', ecertPath(draft.applicationNo), { token: draft.token })).body
      .data.content;

  it('refuses a certificate whose holder is not the AP / RSE of Part B, with the reason', async () => {
    // Part B names WONG Ka Ming; the test PKI's valid certificate is CHAN TAI MAN's.
    const draft = await h.readyDraft({ caseApplicationNo: CASES.scs1.no });
    const p7s = await signDetached(new TextEncoder().encode(await contentOf(draft)), h.pki.signers.valid);
    const res = await upload(draft, p7s);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ meta: { code: 'ECERT_REJECTED' }, data: { reason: 'name-mismatch' } });
  });

  it('accepts the certificate of the certifier named in Part B', async () => {
    const draft = await h.readyDraft({ caseApplicationNo: CASES.scs1.no, applicantNameEn: 'CHAN TAI MAN' });
    const p7s = await signDetached(new TextEncoder().encode(await contentOf(draft)), h.pki.signers.valid);
    const res = await upload(draft, p7s);
    expect(res.status).toBe(200);
    expect((await h.submit(draft)).status).toBe(200);
  });
});
