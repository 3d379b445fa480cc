import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditEvents, caseActions } from '../../drizzle/schema';
import { newKey } from './application-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';
import { formatHkDate } from '../../machines/rules/dates';

let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

const withdrawal = { reason: 'The school will not open.', confirm: true };

describe('GET /api/cases/current', () => {
  it('answers the case with its status and which follow-ups the lifecycle allows now', async () => {
    const c = await h.loggedInCase('SUBMITTED');

    const res = await h.current(c.token);

    expect(res.status).toBe(200);
    expect(res.body.data.applicationNo).toBe(c.applicationNo);
    expect(res.body.data.status).toBe('SUBMITTED');
    expect(res.body.data.actions).toEqual([
      { key: 'withdrawApplication', route: '/withdraw-application', allowed: true },
      { key: 'requestForInspection', route: '/request-for-inspection', allowed: false },
      { key: 'appointment', route: '/form-appointment-step1', allowed: true },
      // An A2 case is updated with the school variant only (issue 11).
      { key: 'updateInformation', route: '/form-usi-step1', allowed: true },
      { key: 'updateInformationCccaic2', route: '/form-usi-cccaic2-step1', allowed: false },
      { key: 'updateInformationJokc02', route: '/form-usi-jokc02-step1', allowed: false },
      { key: 'updateInformationCccaimh3', route: '/form-usi-cccaimh3-step1', allowed: false },
      { key: 'submitDocument', route: '/form-submit-doc-step1', allowed: true },
    ]);
    expect(res.body.data.facts.applicantName).toBe('CHAN Tai Man');
    expect(res.body.data.calendar.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('offers an inspection once a Letter of Requirements is out', async () => {
    const c = await h.loggedInCase('LOR_ISSUED');
    const res = await h.current(c.token);
    expect(res.body.data.actions.find((a) => a.key === 'requestForInspection')?.allowed).toBe(true);
  });

  it('answers 401 without a session and 403 for another application number, known or not', async () => {
    const c = await h.loggedInCase();
    const other = await h.addApplication();

    expect((await h.call('GET', '/api/cases/current')).status).toBe(401);
    const known = await h.current(c.token, `?applicationNo=${other.applicationNo}`);
    const unknown = await h.current(c.token, '?applicationNo=A2-2026-999999');
    expect(known.status).toBe(403);
    expect(unknown.status).toBe(403);
    expect(known.body).toEqual(unknown.body);
    expect((await h.current(c.token, '?applicationNo=%20%20')).status).toBe(400);
  });

  it('lists the documents submitted with the application under its history row, downloadable for 7 days', async () => {
    const draft = await h.readyDraft();
    await h.sign(draft);
    expect((await h.submit(draft)).status).toBe(200);
    await h.messages.settled();
    const login = await h.login(draft.applicationNo, draft.email);

    const res = await h.current(login.token);

    const row = res.body.data.history.find((r) => r.documentType === 'APPLICATION_FORM');
    expect(row?.documents.map((d) => d.kind)).toEqual([
      'application',
      ...draft.documents.map((d) => d.documentType),
    ]);
    expect(row?.documents.every((d) => d.downloadable)).toBe(true);
    const plan = row!.documents.find((d) => d.kind === draft.documents[0]!.documentType)!;
    const file = await h.download(`/api/cases/current/documents/${plan.id}`, login.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(file.bytes).equals(Buffer.from(draft.documents[0]!.content))).toBe(true);

    h.clock.advance({ hours: 7 * 24 + 1 });
    const later = await h.login(draft.applicationNo, draft.email);
    const after = await h.current(later.token);
    expect(after.body.data.history[0]?.documents.some((d) => d.downloadable)).toBe(false);
    const gone = await h.download(`/api/cases/current/documents/${plan.id}`, later.token);
    expect(gone.status).toBe(410);
  });

  it('answers 404 for a document of another case and 400 for a malformed id', async () => {
    const c = await h.loggedInCase();
    expect((await h.download('/api/cases/current/documents/999999', c.token)).status).toBe(404);
    expect((await h.download('/api/cases/current/documents/abc', c.token)).status).toBe(400);
  });
});

describe('POST /api/cases/current/actions/withdrawApplication', () => {
  it('refuses without the confirmation tick, with the message in the caller’s language', async () => {
    const c = await h.loggedInCase();

    const en = await h.act(c.token, 'withdrawApplication', { reason: 'x' });
    const tc = await h.act(c.token, 'withdrawApplication', { reason: 'x' }, { lang: 'tc' });

    expect(en.status).toBe(400);
    expect(en.body.data).toEqual({
      errors: [
        {
          path: 'answers.confirm',
          message: 'Tick the box to confirm that you want to withdraw the application',
        },
      ],
    });
    expect(tc.body.meta.message).toBe('請剔選方格，確認你要撤回申請');
  });

  it('withdraws: status, history row, audit event and an acknowledgement in the applicant’s language', async () => {
    const c = await h.loggedInCase('UNDER_EXAMINATION', 'tc');
    const mails = h.smtp.mails.length;

    const res = await h.act(c.token, 'withdrawApplication', withdrawal);

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      applicationNo: c.applicationNo,
      formKey: 'withdrawApplication',
      reference: `WD-${c.applicationNo}-1`,
      status: 'WITHDRAWN',
    });
    const after = await h.current(c.token);
    expect(after.body.data.status).toBe('WITHDRAWN');
    expect(after.body.data.history[0]).toMatchObject({
      documentType: 'WITHDRAWAL',
      status: 'WITHDRAWN',
      submittedBy: 'APPLICANT',
      reference: `WD-${c.applicationNo}-1`,
    });
    expect(after.body.data.actions.every((a) => !a.allowed)).toBe(true);
    const audit = await h.database.db.select().from(auditEvents).where(eq(auditEvents.applicationId, c.id));
    // Besides the login's rows (otp.send, auth.login: docs/decisions/033-audit-log.md), one change of the case.
    expect(audit.filter((a) => a.event.startsWith('case.'))).toEqual([
      expect.objectContaining({
        actor: 'applicant',
        event: 'case.withdraw',
        before: { status: 'UNDER_EXAMINATION' },
        after: { status: 'WITHDRAWN', formKey: 'withdrawApplication' },
      }),
    ]);
    await h.messages.settled();
    const mail = h.smtp.mails.slice(mails).find((m) => m.to.includes(c.email));
    expect(mail?.subject).toBe(`申請 ${c.applicationNo} 已撤回`);
    expect(mail?.text).toContain(`WD-${c.applicationNo}-1`);
  });

  it('answers a retry with the same key with the same answer, and a second withdrawal with 409 naming the status', async () => {
    const c = await h.loggedInCase();
    const key = newKey();
    const first = await h.act(c.token, 'withdrawApplication', withdrawal, { key });

    const retry = await h.act(c.token, 'withdrawApplication', withdrawal, { key });
    const again = await h.act(c.token, 'withdrawApplication', withdrawal);
    const againTc = await h.act(c.token, 'withdrawApplication', withdrawal, { lang: 'tc' });

    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(first.body.data);
    expect(again.status).toBe(409);
    expect(again.body.meta.code).toBe('CASE_ACTION_NOT_ALLOWED');
    expect(again.body.meta.message).toBe(
      'This cannot be done now: the application is “Withdrawn”. Your case page shows what you can do.',
    );
    expect(againTc.body.meta.message).toContain('「已撤回」');
  });

  it('makes one withdrawal of ten parallel ones', async () => {
    const c = await h.loggedInCase();

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.act(c.token, 'withdrawApplication', withdrawal)),
    );

    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    const rows = await h.database.db.select().from(caseActions).where(eq(caseActions.applicationId, c.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses the same key reused for another follow-up', async () => {
    const c = await h.loggedInCase('LOR_ISSUED');
    const key = newKey();
    expect((await h.act(c.token, 'requestForInspection', h.inspectionAnswers(), { key })).status).toBe(200);
    const reused = await h.act(c.token, 'withdrawApplication', withdrawal, { key });
    expect(reused.status).toBe(409);
    expect(reused.body.meta.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('POST /api/cases/current/actions/requestForInspection', () => {
  it('is refused before there is anything to inspect, naming the status', async () => {
    const c = await h.loggedInCase('SUBMITTED');
    const res = await h.act(c.token, 'requestForInspection', h.inspectionAnswers());
    expect(res.status).toBe(409);
    expect(res.body.meta.message).toContain('“Submitted”');
  });

  it('refuses dates that are not working days, too soon, too late or the same', async () => {
    const c = await h.loggedInCase('LOR_ISSUED');
    const [d1] = h.workingDays(1);
    const saturday = (() => {
      const d = new Date(`${d1}T00:00:00Z`);
      while (d.getUTCDay() !== 6) d.setUTCDate(d.getUTCDate() + 1);
      return d.toISOString().slice(0, 10);
    })();
    const today = (await h.current(c.token)).body.data.calendar.today;

    const res = await h.act(
      c.token,
      'requestForInspection',
      h.inspectionAnswers({
        preferredDate1: saturday,
        preferredDate2: today,
        preferredDate3: '2099-01-05',
      }),
    );
    const same = await h.act(
      c.token,
      'requestForInspection',
      h.inspectionAnswers({ preferredDate2: d1, preferredDate1: d1 }),
    );

    expect(res.status).toBe(400);
    const byField = Object.fromEntries(
      (res.body.data as unknown as { errors: { path: string; message: string }[] }).errors.map((e) => [
        e.path,
        e.message,
      ]),
    );
    expect(byField['answers.preferredDate1']).toBe(
      `${formatHkDate(saturday, 'en')} is not a working day. Choose a date from Monday to Friday that is not a general holiday`,
    );
    expect(byField['answers.preferredDate2']).toBe(
      `Choose a date on or after ${formatHkDate(d1 ?? '', 'en')}, so that the inspection can be arranged`,
    );
    expect(byField['answers.preferredDate3']).toMatch(/^Choose a date on or before \d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(same.status).toBe(400);
    expect(same.body.meta.message).toBe('Choose a different date from your other preferred dates');
  });

  it('refuses a general holiday as a preferred date', async () => {
    const c = await h.loggedInCase('LOR_ISSUED');
    const { holidays, today } = (await h.current(c.token)).body.data.calendar;
    const holiday = holidays.find(
      (d) => d > today && ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()),
    );
    expect(holiday, 'a weekday holiday within the calendar window').toBeDefined();
    const res = await h.act(
      c.token,
      'requestForInspection',
      h.inspectionAnswers({ preferredDate1: holiday }),
    );
    expect(res.status).toBe(400);
    expect(res.body.meta.message).toBe(
      `${formatHkDate(holiday ?? '', 'en')} is not a working day. Choose a date from Monday to Friday that is not a general holiday`,
    );
  });

  it('records the request, and an open request blocks a second one', async () => {
    const c = await h.loggedInCase('COMPLIANCE_REPORTED');

    const res = await h.act(c.token, 'requestForInspection', h.inspectionAnswers({ preferredDate3: '' }));
    const second = await h.act(c.token, 'requestForInspection', h.inspectionAnswers());

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      reference: `INS-${c.applicationNo}-1`,
      status: 'INSPECTION_REQUESTED',
    });
    const [row] = await h.database.db.select().from(caseActions).where(eq(caseActions.applicationId, c.id));
    expect(row?.answers).toMatchObject({
      inspectionContactTelephone: '21234567',
      requesterRole: 'applicant',
    });
    expect(row?.answers).not.toHaveProperty('preferredDate3');
    expect(second.status).toBe(409);
    expect(second.body.meta.message).toContain('“Inspection requested”');
    const after = await h.current(c.token);
    expect(after.body.data.history[0]?.documentType).toBe('INSPECTION_REQUEST');
    expect(after.body.data.actions.find((a) => a.key === 'requestForInspection')?.allowed).toBe(false);
  });
});

describe('bad input to the follow-up endpoint', () => {
  it('answers 400, 401 and 404 in the envelope, never 500', async () => {
    const c = await h.loggedInCase();

    const cases = await Promise.all([
      h.act(undefined, 'withdrawApplication', withdrawal),
      h.act(c.token, 'noSuchForm', withdrawal),
      h.act(c.token, 'bad-name!', withdrawal),
      h.act(c.token, 'withdrawApplication', withdrawal, { key: 'short' }),
      h.act(c.token, 'withdrawApplication', null, { rawBody: { answers: 'text' } }),
      h.act(c.token, 'withdrawApplication', null, { rawBody: [1, 2] }),
      h.act(c.token, 'withdrawApplication', { confirm: 'yes', reason: 'x'.repeat(1001) }),
    ]);

    expect(cases.map((r) => r.status)).toEqual([401, 404, 400, 400, 400, 400, 400]);
    for (const r of cases) expect(r.body.meta.message).toBeTruthy();
    expect((await h.current(c.token)).body.data.status).toBe('SUBMITTED');
  });

  it('limits follow-ups per case: 429 with Retry-After after too many in an hour', async () => {
    const c = await h.loggedInCase();
    await h.act(c.token, 'withdrawApplication', withdrawal);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1)
      statuses.push((await h.act(c.token, 'withdrawApplication', withdrawal)).status);

    expect(statuses.slice(0, 19).every((s) => s === 409)).toBe(true);
    expect(statuses[19]).toBe(429);
    const limited = await h.act(c.token, 'withdrawApplication', withdrawal);
    expect(limited.headers.get('retry-after')).toBe('3600');
    expect(limited.body.meta.message).toBe(
      'Too many requests for this application. Please try again in 60 minutes.',
    );
  });
});
