import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { applications, caseActions, caseVersions } from '../../drizzle/schema';
import { currentAnswers, listCaseVersions } from '../../api/modules/cases/case-versions';
import { formByKey } from '../../machines/forms';
import { newKey } from './application-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';

/**
 * Update Application and School / Centre Information (issue 11): versions of the case's information, the
 * diff between them, the refusals (nothing changed, stale, wrong form, closed case, another case) and
 * parallel updates. Real Postgres, real submission for the school case.
 */
let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

interface Update {
  token: string;
  form?: string;
  answers: Record<string, unknown>;
  baseVersion?: number;
  key?: string;
  lang?: string;
}

const update = ({ token, form = 'updateInformation', answers, baseVersion, key, lang }: Update) =>
  h.act(token, form, answers, {
    key: key ?? newKey(),
    ...(lang ? { lang } : {}),
    rawBody: baseVersion === undefined ? { answers } : { answers, baseVersion },
  });

/** A school case submitted online (version 1 = the submitted answers) and a session on it. */
async function submittedSchoolCase() {
  const draft = await h.readyDraft();
  await h.sign(draft);
  expect((await h.submit(draft)).status).toBe(200);
  await h.messages.settled();
  const login = await h.login(draft.applicationNo, draft.email);
  const [app] = await h.database.db
    .select()
    .from(applications)
    .where(eq(applications.applicationNo, draft.applicationNo));
  return { id: app!.id, applicationNo: draft.applicationNo, token: login.token, email: draft.email };
}

/** A child care centre case (CCCAI-C2) whose version 1 was recorded when it came in. */
async function centreCase(status: 'SUBMITTED' | 'WITHDRAWN' = 'SUBMITTED') {
  const form = formByKey('cccaiC2')!;
  const app = await h.addApplication({
    formCode: 'CCCAI-C2',
    applicationType: 'NEWCCC',
    status,
    language: 'tc',
  });
  await h.database.db.insert(caseVersions).values({
    applicationId: app.id,
    version: 1,
    answers: { ...form.example },
    reference: app.applicationNo,
    submittedBy: 'APPLICANT',
    createdAt: h.clock.now(),
  });
  const login = await h.login(app.applicationNo, app.email);
  return { ...app, token: login.token };
}

describe('updating a school application’s information', () => {
  it('prefills from version 1, keeps every version and the diff between each', async () => {
    const c = await submittedSchoolCase();
    const before = await h.current(c.token);
    expect(before.body.data.actions.find((a) => a.key === 'updateInformation')).toEqual({
      key: 'updateInformation',
      route: '/form-usi-step1',
      allowed: true,
    });
    expect(before.body.data.actions.find((a) => a.key === 'updateInformationCccaic2')?.allowed).toBe(false);
    const v1 = before.body.data.facts.information;
    expect(v1.version).toBe(1);
    expect(v1.answers.schoolNameEn).toBe('Harbour Tutorial Centre');

    const first = await update({
      token: c.token,
      answers: { ...v1.answers, schoolNameEn: 'Harbour Learning Centre', confirmUpdate: true },
      baseVersion: 1,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.reference).toBe(`USI-${c.applicationNo}-1`);
    expect(first.body.data.status).toBe('SUBMITTED');

    const mid = await h.current(c.token);
    expect(mid.body.data.facts.information.version).toBe(2);
    const second = await update({
      token: c.token,
      answers: {
        ...mid.body.data.facts.information.answers,
        applicantNameEn: 'CHAN Siu Wai',
        studentCount: '150',
        confirmUpdate: true,
      },
      baseVersion: 2,
    });
    expect(second.status).toBe(200);
    expect(second.body.data.reference).toBe(`USI-${c.applicationNo}-2`);

    const versions = await listCaseVersions(h.database.db, c.id);
    expect(versions.map((v) => [v.version, v.reference, v.submittedBy])).toEqual([
      [1, c.applicationNo, 'APPLICANT'],
      [2, `USI-${c.applicationNo}-1`, 'APPLICANT'],
      [3, `USI-${c.applicationNo}-2`, 'APPLICANT'],
    ]);
    expect(versions[0]!.changes).toEqual([]);
    expect(versions[1]!.changes).toEqual([
      { field: 'schoolNameEn', before: 'Harbour Tutorial Centre', after: 'Harbour Learning Centre' },
    ]);
    expect(versions[2]!.changes.map((ch) => ch.field)).toEqual(['applicantNameEn', 'studentCount']);
    expect(versions[2]!.changes[0]).toEqual({
      field: 'applicantNameEn',
      before: 'CHAN Tai Man',
      after: 'CHAN Siu Wai',
    });
    // The application's own declaration is carried on; the update's tick is not part of the information.
    expect(versions[2]!.answers.agreeTerms).toBe(true);
    expect(versions[2]!.answers).not.toHaveProperty('confirmUpdate');
    expect(await currentAnswers(h.database.db, c.id)).toEqual(versions[2]!.answers);

    const after = await h.current(c.token);
    const rows = after.body.data.history.filter((r) => r.documentType === 'INFORMATION_UPDATE');
    expect(rows.map((r) => r.reference).sort()).toEqual([
      `USI-${c.applicationNo}-1`,
      `USI-${c.applicationNo}-2`,
    ]);
    expect(after.body.data.facts.applicantName).toBe('CHAN Siu Wai');
    const [app] = await h.database.db.select().from(applications).where(eq(applications.id, c.id));
    expect(app!.applicantNameEn).toBe('CHAN Siu Wai');

    const pdf = await h.download('/api/cases/current/information.pdf', c.token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain(`${c.applicationNo} v3.pdf`);
    expect(Buffer.from(pdf.bytes.slice(0, 5)).toString()).toBe('%PDF-');

    await h.messages.settled();
    const mail = h.smtp.mails.filter((m) => m.to.includes(c.email) && m.subject.includes('Update'));
    expect(mail.length).toBe(2);
    expect(mail[0]!.text).toContain(`USI-${c.applicationNo}-1`);
  });

  it('shows the case page’s Application Details as updated: the new mobile, not the submitted one', async () => {
    const c = await submittedSchoolCase();
    const details = () =>
      h.call<{ applicant: { mobile: string | null; email: string | null } }>(
        'GET',
        '/api/application/submission',
        { token: c.token },
      );
    const before = await details();
    expect(before.status).toBe(200);
    expect(before.body.data.applicant.mobile?.replace(/\s/g, '')).toBe('91234567');
    const v1 = (await h.current(c.token)).body.data.facts.information;

    const res = await update({
      token: c.token,
      answers: { ...v1.answers, applicantMobile: '6123 4567', confirmUpdate: true },
      baseVersion: 1,
    });
    expect(res.status).toBe(200);

    const after = await details();
    expect(after.status).toBe(200);
    expect(after.body.data.applicant.mobile?.replace(/\s/g, '')).toBe('61234567');
    expect(after.body.data.applicant.email).toBe(c.email);
  });

  it('refuses an update that changes nothing, with the reason on the form', async () => {
    const c = await submittedSchoolCase();
    const { information } = (await h.current(c.token)).body.data.facts;
    // A telephone typed with a space is the same number.
    const res = await update({
      token: c.token,
      answers: { ...information.answers, orgTelephone: '21234567', confirmUpdate: true },
      baseVersion: 1,
      lang: 'tc',
    });
    expect(res.status).toBe(400);
    const errors = (res.body.data as unknown as { errors: { path: string; message: string }[] }).errors;
    expect(errors).toContainEqual({
      path: 'answers.confirmUpdate',
      message: expect.stringContaining('你沒有更改任何資料') as string,
    });
    expect((await listCaseVersions(h.database.db, c.id)).length).toBe(1);
  });

  it('answers 409 CASE_STALE with the information as it is now when another update came first', async () => {
    const c = await submittedSchoolCase();
    const { information } = (await h.current(c.token)).body.data.facts;
    const a = { ...information.answers, schoolNameEn: 'First Name Centre', confirmUpdate: true };
    const b = { ...information.answers, schoolNameZh: '第二中心', confirmUpdate: true };
    expect((await update({ token: c.token, answers: a, baseVersion: 1 })).status).toBe(200);

    const stale = await update({ token: c.token, answers: b, baseVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.meta.code).toBe('CASE_STALE');
    const data = stale.body.data as unknown as { version: number; answers: Record<string, unknown> };
    expect(data.version).toBe(2);
    expect(data.answers.schoolNameEn).toBe('First Name Centre');
    expect((await listCaseVersions(h.database.db, c.id)).length).toBe(2);

    const missing = await update({ token: c.token, answers: b });
    expect(missing.status).toBe(400);
  });

  it('makes one update of parallel requests with one key, and one version of parallel different updates', async () => {
    const c = await submittedSchoolCase();
    const { information } = (await h.current(c.token)).body.data.facts;
    const answers = { ...information.answers, schoolNameEn: 'Parallel Centre', confirmUpdate: true };
    const key = newKey();
    const same = await Promise.all(
      [1, 2, 3].map(() => update({ token: c.token, answers, baseVersion: 1, key })),
    );
    expect(same.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(same.map((r) => r.body.data.reference)).size).toBe(1);
    const made = await h.database.db
      .select()
      .from(caseActions)
      .where(and(eq(caseActions.applicationId, c.id), eq(caseActions.formKey, 'updateInformation')));
    expect(made.length).toBe(1);

    const racing = await Promise.all(
      ['Racer A', 'Racer B'].map((name) =>
        update({ token: c.token, answers: { ...answers, schoolNameEn: name }, baseVersion: 2 }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await listCaseVersions(h.database.db, c.id)).length).toBe(3);
  });

  it('refuses another case (403), a withdrawn case and the form of another kind of application (409)', async () => {
    const c = await submittedSchoolCase();
    const other = await h.addApplication();
    const wrongCase = await h.call(
      'POST',
      `/api/cases/current/actions/updateInformation?applicationNo=${other.applicationNo}`,
      {
        token: c.token,
        body: { answers: {}, baseVersion: 1 },
        headers: { 'Idempotency-Key': newKey() },
      },
    );
    expect(wrongCase.status).toBe(403);

    const centre = await update({
      token: c.token,
      form: 'updateInformationCccaic2',
      answers: {},
      baseVersion: 1,
    });
    expect(centre.status).toBe(409);
    expect(centre.body.meta.code).toBe('CASE_ACTION_NOT_ALLOWED');

    const withdrawn = await centreCase('WITHDRAWN');
    const closed = await update({
      token: withdrawn.token,
      form: 'updateInformationCccaic2',
      answers: { centreNameEn: 'X', confirmUpdate: true },
      baseVersion: 1,
    });
    expect(closed.status).toBe(409);
    expect(closed.body.meta.code).toBe('CASE_ACTION_NOT_ALLOWED');
    expect((await h.current(withdrawn.token)).body.data.actions.every((a) => !a.allowed)).toBe(true);
  });
});

describe('updating a child care centre’s information', () => {
  it('uses the centre’s own variant, and tells the applicant in their language', async () => {
    const c = await centreCase();
    const res = await h.current(c.token);
    const allowed = res.body.data.actions.filter((a) => a.allowed).map((a) => a.key);
    expect(allowed).toContain('updateInformationCccaic2');
    expect(allowed).not.toContain('updateInformation');
    expect(allowed).not.toContain('updateInformationJokc02');

    const school = await update({ token: c.token, answers: {}, baseVersion: 1 });
    expect(school.status).toBe(409);

    const { information } = res.body.data.facts;
    const done = await update({
      token: c.token,
      form: 'updateInformationCccaic2',
      answers: { ...information.answers, childCount: '45', confirmUpdate: true },
      baseVersion: 1,
    });
    expect(done.status).toBe(200);
    expect(done.body.data.reference).toBe(`USI-CCCAIC2-${c.applicationNo}-1`);
    const versions = await listCaseVersions(h.database.db, c.id);
    expect(versions[1]!.changes).toEqual([{ field: 'childCount', before: 40, after: 45 }]);

    await h.messages.settled();
    const mail = h.smtp.mails.find(
      (m) => m.to.includes(c.email) && m.text.includes(done.body.data.reference),
    );
    expect(mail?.subject).toContain('資料更新');
  });
});
