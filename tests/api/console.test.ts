import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { applications, caseVersions } from '../../drizzle/schema';
import type { CaseData } from '../../machines/rules/case';
import { inkReport, renderPdf } from '../support/pdf-pixels';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';
import { actSigned } from './case-signing-harness';
import { landscapeA4 } from '../support/pdf-corpus';
import { answerInformationRequest } from '../../api/modules/cases/case-messages.repo';
import { hongKongDate } from '../../machines/rules/working-days';
import { insertAcceptedAppointment } from './accepted-appointment';
import { formatHkDate } from '../../machines/rules/dates';

let h: ConsoleHarness;
let officer: StaffUser;
let other: StaffUser;
let senior: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'flow.officer');
  other = await h.staff('caseOfficer', 'other.officer');
  senior = await h.staff('seniorOfficer', 'flow.senior');
});

afterAll(async () => {
  await h?.close();
});

/** The text of a PDF as poppler's pdftotext reads it (a real reader, not our own parser). */
function pdfText(bytes: Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'console-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/**
 * The PDF as a person sees it: drawn by pdf.js and by poppler without a warning, every run of its English
 * and Chinese text leaving ink where it stands (a font that cannot be drawn would leave blanks).
 */
async function expectDrawn(bytes: Uint8Array): Promise<void> {
  const pdf = await renderPdf(bytes, 100);
  expect(pdf.pdfjs.length).toBeGreaterThan(0);
  expect(pdf.poppler.length).toBe(pdf.pdfjs.length);
  expect(pdf.pdfjsWarnings).toEqual([]);
  expect(pdf.popplerMessages).toEqual([]);
  expect(inkReport(pdf)).toEqual([]);
}

const LOR = {
  bdReference: 'BD 2/9123/26',
  date: '2026-01-05',
  category1: ['Provide a means of escape from the first floor.'],
  category2: ['Fire resisting door to the kitchen.'],
  minorWorks: [{ item: '3.5', description: 'Erection of a canopy', submissionNo: 'MW01234567' }],
};

describe('the contact details due date: 2 working days after submission (Hong Kong)', () => {
  it.each([
    ['across a weekend (Friday → Tuesday)', '2026-01-09T02:00:00Z', '2026-01-13'],
    ['across Good Friday, Easter Monday and the day after Ching Ming', '2026-04-02T02:00:00Z', '2026-04-09'],
    ['across the Lunar New Year', '2026-02-16T02:00:00Z', '2026-02-23'],
    ['a submission late on Friday in Hong Kong (Friday 23:30 HKT)', '2026-01-09T15:30:00Z', '2026-01-13'],
  ])('%s', async (_name, submittedAt, due) => {
    const app = await h.submittedCase('SUBMITTED', new Date(submittedAt));
    const queue = await h.queue(officer.token, `?applicationNo=${app.applicationNo.toLowerCase()}`);
    expect(queue.status).toBe(200);
    expect(queue.body.data.cases.map((r) => [r.applicationNo, r.contactDue])).toEqual([
      [app.applicationNo, due],
    ]);
  });

  it('marks the overdue ones, sorts by due date and filters by status, form and officer', async () => {
    const late = await h.submittedCase('SUBMITTED', new Date('2025-12-29T02:00:00Z'));
    const fresh = await h.submittedCase('SUBMITTED', h.clock.now());
    const row = async (no: string) =>
      (await h.queue(officer.token, `?applicationNo=${no}`)).body.data.cases[0];
    expect(await row(late.applicationNo)).toMatchObject({
      contactDue: '2025-12-31',
      overdue: true,
      officer: null,
    });
    expect((await row(fresh.applicationNo))?.overdue).toBe(false);
    const all = (await h.queue(officer.token)).body.data;
    const dues = all.cases.map((r) => r.contactDue);
    expect(dues).toEqual([...dues].sort());
    await h.staffAct(officer.token, fresh.applicationNo, 'case.assign', 'SUBMITTED', { staffId: officer.id });
    const mine = (await h.queue(officer.token, '?officer=me')).body.data.cases.map((r) => r.applicationNo);
    expect(mine).toEqual([fresh.applicationNo]);
    const none = (await h.queue(officer.token, `?officer=none&applicationNo=${late.applicationNo}`)).body
      .data;
    expect(none.cases.map((r) => r.applicationNo)).toEqual([late.applicationNo]);
    expect(
      (await h.queue(officer.token, `?officer=none&applicationNo=${fresh.applicationNo}`)).body.data.total,
    ).toBe(0);
    expect((await h.queue(officer.token, '?status=WITHDRAWN')).body.data.cases).toEqual([]);
    expect(
      (await h.queue(officer.token, '?form=A2&status=SUBMITTED')).body.data.cases.length,
    ).toBeGreaterThan(1);
    for (const bad of ['?status=NOPE', '?page=0', '?page=x', '?applicationNo=A2%20X', '?officer=someone'])
      expect((await h.queue(officer.token, bad)).status, bad).toBe(400);
  });

  it('pages the queue: every case is found, the newest too, 50 a page in order of the due date', async () => {
    const form = 'PAGED-Q';
    const base = new Date('2026-03-02T02:00:00Z').getTime();
    const made: string[] = [];
    for (let i = 0; i < 61; i++) {
      const app = await h.submittedCase('SUBMITTED', new Date(base + (60 - i) * 86_400_000));
      await h.database.db.update(applications).set({ formCode: form }).where(eq(applications.id, app.id));
      made.push(app.applicationNo);
    }
    const first = (await h.queue(officer.token, `?form=${form}`)).body.data;
    expect(first).toMatchObject({ total: 61, page: 1, pageSize: 50 });
    expect(first.cases).toHaveLength(50);
    const second = (await h.queue(officer.token, `?form=${form}&page=2`)).body.data;
    expect(second.cases).toHaveLength(11);
    const order = [...first.cases, ...second.cases];
    // The last one made came in first (its due date is the earliest); the first one made is on page 2.
    expect(order[0]?.applicationNo).toBe(made[60]);
    expect(order.at(-1)?.applicationNo).toBe(made[0]);
    const dues = order.map((r) => r.contactDue);
    expect(dues).toEqual([...dues].sort());
    expect((await h.queue(officer.token, `?form=${form}&page=3`)).body.data.cases).toEqual([]);
  });
});

describe('moving a case from submitted to certificate (issue 17)', () => {
  it('assign, contact details, examination, LoR PDF, inspection, certificate PDF, close', async () => {
    const app = await h.loggedInCase('SUBMITTED');
    const no = app.applicationNo;
    expect(
      (await h.staffAct(officer.token, no, 'case.assign', 'SUBMITTED', { staffId: officer.id })).status,
    ).toBe(200);

    const mails = h.smtp.mails.length;
    const ack = await h.staffAct(officer.token, no, 'case.acknowledge', 'SUBMITTED');
    expect(ack.body.data).toMatchObject({ status: 'ACKNOWLEDGED', reference: `ACK-${no}-1` });
    await h.messages.settled();
    const mail = h.smtp.mails.slice(mails).find((m) => m.to.includes(app.email));
    expect(mail?.text).toContain('Officer flow.officer');
    expect(mail?.text).toContain('2626 1616');
    expect(mail?.text).toContain('flow.officer@bd.gov.hk');

    const current = await h.current(app.token);
    expect(current.body.data.status).toBe('ACKNOWLEDGED');
    expect(current.body.data.history[0]).toMatchObject({
      documentType: 'ACKNOWLEDGEMENT',
      submittedBy: 'BD',
    });

    expect((await h.staffAct(officer.token, no, 'case.examine', 'ACKNOWLEDGED')).body.data.status).toBe(
      'UNDER_EXAMINATION',
    );
    const lor = await h.staffAct(officer.token, no, 'lor.issue', 'UNDER_EXAMINATION', LOR);
    expect(lor.status).toBe(200);
    const lorPdf = await downloadLatest(app.token, 'LETTER_OF_REQUIREMENTS');
    await expectDrawn(lorPdf);
    const lorText = pdfText(lorPdf);
    for (const t of [
      // The case is in English: so is its letter (docs/decisions/041-letter-parts.md).
      'Letter of Requirements',
      'BD 2/9123/26',
      'Category 1',
      'means of escape',
      'Category 2',
      'MW01234567',
      'Class III 3.5',
      'canopy',
    ])
      expect(lorText).toContain(t);

    // The applicant asks for an inspection (the follow-up of issue 10).
    expect((await h.act(app.token, 'requestForInspection', h.inspectionAnswers())).status).toBe(200);
    const [day] = h.workingDays(1);
    const scheduled = await h.staffAct(officer.token, no, 'inspection.schedule', 'INSPECTION_REQUESTED', {
      date: day,
      window: 'AM',
      officerId: officer.id,
    });
    expect(scheduled.body.data.status).toBe('INSPECTION_SCHEDULED');
    // No result before the inspection's date (docs/flows/case-lifecycle.md), in the officer's language.
    const early = await h.staffAct(officer.token, no, 'inspection.record', 'INSPECTION_SCHEDULED', {
      result: 'PASS',
    });
    expect([early.status, early.body.meta.code]).toEqual([409, 'CASE_RULE']);
    expect(early.body.meta.message).toBe(
      `The result can be recorded only on or after the inspection date (${formatHkDate(day ?? '', 'en')}).`,
    );
    // On the inspection's day the result is recorded; the clock then goes back, so that the sessions of
    // this file's other steps stay alive (only the lifecycle's rule on dates is walked here).
    const before = h.clock.now().getTime();
    while (hongKongDate(h.clock.now()) < day!) h.clock.advance({ hours: 24 });
    officer = await h.signInAgain(officer);
    expect(
      (await h.staffAct(officer.token, no, 'inspection.record', 'INSPECTION_SCHEDULED', { result: 'PASS' }))
        .body.data.status,
    ).toBe('INSPECTED');
    h.clock.advance({ ms: before - h.clock.now().getTime() });
    // Proposed by the case officer, approved by a senior officer (docs/decisions/040-four-eyes-decisions.md).
    const cert = await h.decide(officer.token, senior.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    expect(cert.body.data.status).toBe('CERTIFICATE_ISSUED');
    const certPdf = await downloadLatest(app.token, 'CERTIFICATE');
    await expectDrawn(certPdf);
    const certText = pdfText(certPdf);
    for (const t of ['Certificate of Building Safety', no, `Inspected on: ${formatHkDate(day ?? '', 'en')}`])
      expect(certText).toContain(t);
    expect((await h.staffAct(officer.token, no, 'case.close', 'CERTIFICATE_ISSUED')).body.data.status).toBe(
      'CLOSED',
    );

    // The console shows it all, with the audit trail: who, role, what, before → after, from where.
    const view = await h.view(officer.token, no);
    expect(view.body.data.status).toBe('CLOSED');
    expect(view.body.data.documents.map((d) => d.kind)).toEqual(
      expect.arrayContaining(['letterOfRequirements', 'certificate']),
    );
    const events = view.body.data.audit.map((a) => a.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'case.assign',
        'case.acknowledge',
        'lor.issue',
        'inspection.request',
        'certificate.issue',
        'case.close',
      ]),
    );
    const closed = view.body.data.audit.find((a) => a.event === 'case.close');
    expect(closed).toMatchObject({
      actor: 'caseOfficer',
      actorRef: `staff:${officer.id}`,
      before: { status: 'CERTIFICATE_ISSUED' },
      after: { status: 'CLOSED' },
    });
    expect(closed?.address).toMatch(/127\.0\.0\.1|::1/);
    // The names the audit trail shows in words: the actor's, and the officer an assignment names.
    const assigned = view.body.data.audit.find((a) => a.event === 'case.assign');
    expect(assigned?.after).toMatchObject({ assignedTo: officer.id });
    expect(assigned?.people[String(officer.id)]).toEqual({
      nameEn: `Officer ${officer.username}`,
      nameZh: `${officer.username}主任`,
    });
    // The admin's search finds it.
    const admin = await h.staff('admin');
    const search = await h.staffCall<{ event: string }[]>(
      'GET',
      `/api/staff/audit?applicationNo=${no}&event=lor.issue`,
      admin.token,
    );
    expect(search.body.data.map((a) => a.event)).toEqual(['lor.issue']);
  });

  it('answers a transition the lifecycle does not allow now with 409 naming the status', async () => {
    const app = await h.submittedCase('SUBMITTED');
    await h.staffAct(officer.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: officer.id });
    const reply = await h.staffAct(officer.token, app.applicationNo, 'certificate.issue', 'SUBMITTED', {
      kind: 'CERTIFICATE',
    });
    expect(reply.status).toBe(409);
    expect(reply.body.meta.code).toBe('CASE_ACTION_NOT_ALLOWED');
    expect(reply.body.meta.message).toContain('Submitted');
  });

  it('two officers acting at once: one wins, the other gets 409 with the new status, nothing lost', async () => {
    const app = await h.submittedCase('SUBMITTED');
    const [a, b] = await Promise.all([
      h.staffAct(officer.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: officer.id }),
      h.staffAct(other.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: other.id }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    // The one refused is told, in plain words, who took the case.
    const [taken, winner] = a.status === 409 ? [a, other] : [b, officer];
    expect(taken.body.meta.code).toBe('CASE_CHANGED');
    expect(taken.body.meta.message).toBe(
      `Officer ${winner === officer ? 'flow.officer' : 'other.officer'} took this case while you were working on it. What you typed is kept below.`,
    );
    await h.staffAct(senior.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: officer.id });
    const [c, d] = await Promise.all([
      h.staffAct(officer.token, app.applicationNo, 'case.acknowledge', 'SUBMITTED'),
      h.staffAct(senior.token, app.applicationNo, 'case.acknowledge', 'SUBMITTED'),
    ]);
    expect([c.status, d.status].sort()).toEqual([200, 409]);
    const lost = c.status === 409 ? c : d;
    expect(lost.body.meta.code).toBe('CASE_CHANGED');
    expect(lost.body.meta.message).toContain('Acknowledged');
    // Who changed it, by role: the other one of the two.
    expect(lost.body.meta.message).toMatch(
      c.status === 409 ? /^A senior officer changed this case/ : /^Another case officer changed this case/,
    );
    const stale = await h.staffAct(
      senior.token,
      app.applicationNo,
      'case.acknowledge',
      'SUBMITTED',
      {},
      'tc',
    );
    expect(stale.body.meta.message).toMatch(
      /^在你處理期間，.+已更改此個案：個案現為「.+」。你輸入的內容保留於下方。$/,
    );
    const view = await h.view(senior.token, app.applicationNo);
    expect(view.body.data.audit.filter((e) => e.event === 'case.acknowledge')).toHaveLength(1);
  });

  it('rejects (senior officer only) with a reason, and validates every action body', async () => {
    const app = await h.submittedCase('UNDER_EXAMINATION');
    await h.staffAct(senior.token, app.applicationNo, 'case.assign', 'UNDER_EXAMINATION', {
      staffId: officer.id,
    });
    expect(
      (
        await h.staffAct(officer.token, app.applicationNo, 'case.reject', 'UNDER_EXAMINATION', {
          reason: 'x',
        })
      ).status,
    ).toBe(409);
    const bad = await h.staffAct(
      officer.token,
      app.applicationNo,
      'lor.issue',
      'UNDER_EXAMINATION',
      {
        ...LOR,
        bdReference: 'BD-2-9123',
        date: '2026-02-30',
        minorWorks: [{ item: '9.9', description: '', submissionNo: 'X' }],
      },
      'tc',
    );
    expect(bad.status).toBe(400);
    const paths = (bad.body.data as unknown as { errors: { path: string }[] }).errors.map((e) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'answers.bdReference',
        'answers.date',
        'answers.minorWorks.0.item',
        'answers.minorWorks.0.submissionNo',
      ]),
    );
    expect(
      (await h.staffAct(officer.token, app.applicationNo, 'nope.nope', 'UNDER_EXAMINATION')).status,
    ).toBe(404);
    expect(
      (await h.staffAct(officer.token, app.applicationNo, 'case.examine', 'NOT_A_STATUS' as never)).status,
    ).toBe(400);
    expect(
      (
        await h.staffAct(officer.token, app.applicationNo, 'inspection.schedule', 'UNDER_EXAMINATION', {
          date: '2026-03-01',
          window: 'AM',
          officerId: 999999,
        })
      ).status,
    ).toBe(409);
    const rejected = await h.decide(
      officer.token,
      senior.token,
      app.applicationNo,
      'case.reject',
      'UNDER_EXAMINATION',
      {
        reason: 'The premises are not the ones named.',
      },
    );
    expect(rejected.body.data.status).toBe('REJECTED');
  });

  it('answers a character the letters cannot print with a field error naming it (en, tc), never a 500', async () => {
    const app = await h.submittedCase('UNDER_EXAMINATION');
    await h.staffAct(senior.token, app.applicationNo, 'case.assign', 'UNDER_EXAMINATION', {
      staffId: officer.id,
    });
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['message.send', { body: 'We will call 😀 you.' }, 'body', '"😀" (U+1F600)'],
      ['message.send', { body: 'A lone \ud800 surrogate' }, 'body', 'U+D800'],
      ['case.reject', { reason: 'Wrong premises \u{1F3E0}' }, 'reason', 'U+1F3E0'],
      ['lor.issue', { ...LOR, category1: ['Provide a fire exit 🔥 at the rear.'] }, 'category1.0', 'U+1F525'],
    ];
    for (const [event, answers, path, named] of cases) {
      const who = event === 'case.reject' ? senior.token : officer.token;
      for (const lang of ['en', 'tc'] as const) {
        const res = await h.staffAct(who, app.applicationNo, event, 'UNDER_EXAMINATION', answers, lang);
        expect(res.status, `${event} ${lang}`).toBe(400);
        const errors = (res.body.data as unknown as { errors: { path: string; message: string }[] }).errors;
        const error = errors.find((e) => e.path.endsWith(path));
        expect(error?.message, JSON.stringify(errors)).toContain(named);
        expect(error?.message).toContain(lang === 'en' ? 'cannot be printed' : '無法在本署的函件中列印');
      }
    }
    // Line breaks in a note are kept, not refused.
    const sent = await h.staffAct(officer.token, app.applicationNo, 'message.send', 'UNDER_EXAMINATION', {
      body: 'First line.\nSecond line.',
    });
    expect(sent.status).toBe(200);
  });

  it('asks for further information and exchanges messages; the applicant sees them; an overdue request is flagged', async () => {
    const app = await h.loggedInCase('ACKNOWLEDGED');
    await h.staffAct(officer.token, app.applicationNo, 'case.assign', 'ACKNOWLEDGED', {
      staffId: officer.id,
    });
    const asked = await h.staffAct(officer.token, app.applicationNo, 'information.request', 'ACKNOWLEDGED', {
      documentTypes: ['layoutPlans'],
      note: 'Please send the layout plan of the first floor.',
      replyBy: '2026-01-12',
    });
    expect(asked.status).toBe(200);
    await h.staffAct(officer.token, app.applicationNo, 'message.send', 'ACKNOWLEDGED', {
      body: 'We will call you on Monday.',
    });
    const seen: CaseData = (await h.current(app.token)).body.data;
    expect(seen.requests[0]).toMatchObject({ replyBy: '2026-01-12', documentTypes: ['layoutPlans'] });
    expect(seen.messages[0]).toMatchObject({ sender: 'BD', body: 'We will call you on Monday.' });
    // The applicant answers on the case; an empty message is refused in the caller's language.
    const reply = await h.call('POST', '/api/cases/current/messages', {
      token: app.token,
      body: { body: 'Monday is fine.' },
    });
    expect(reply.status).toBe(200);
    const empty = await h.call('POST', '/api/cases/current/messages?lang=tc', {
      token: app.token,
      body: { body: ' ' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.meta.message).toBe('請填寫此項。');
    expect((await h.call('POST', '/api/cases/current/messages', { body: { body: 'x' } })).status).toBe(401);
    const both = await h.view(officer.token, app.applicationNo);
    expect(both.body.data.messages.map((m) => [m.sender, m.body])).toEqual([
      ['BD', 'We will call you on Monday.'],
      ['APPLICANT', 'Monday is fine.'],
    ]);
    h.clock.advance({ hours: 8 * 24 });
    const later = await h.staff('caseOfficer');
    const row = (await h.queue(later.token, `?applicationNo=${app.applicationNo}`)).body.data.cases[0];
    expect(row?.requestOverdue).toBe(true);
    // Answered (Submit Supporting Document naming the request calls this, tests/api/case-uploads.test.ts):
    // no longer flagged.
    const requestId = seen.requests[0]!.id;
    expect(await answerInformationRequest(h.database.db, app.id, requestId, 1, h.clock.now())).toBe(true);
    expect(await answerInformationRequest(h.database.db, app.id, requestId, 1, h.clock.now())).toBe(false);
    const after = await h.view(later.token, app.applicationNo);
    expect(after.body.data.requests[0]?.answeredAt).not.toBeNull();
    expect(after.body.data.requestOverdue).toBe(false);
  });
});

describe('a revised layout plan in the console (issue 11)', () => {
  it('shows the row of the revision with its label, its file among the documents, and its signature', async () => {
    const app = await h.loggedInCase('ACKNOWLEDGED');
    const form = new FormData();
    form.append('documentType', 'supportingDocument');
    form.append('forType', 'layoutPlans');
    form.append('file', new Blob([(await landscapeA4()).slice()], { type: 'application/pdf' }), 'plan-d.pdf');
    const up = await h.call<{ id: number }>('POST', '/api/cases/current/uploads', {
      token: app.token,
      body: form,
    });
    expect(up.status).toBe(201);
    const sent = await actSigned(h, app.token, 'submitDocument', {
      answers: { documentType: 'layoutPlans', revision: 'D' },
      uploads: [up.body.data.id],
    });
    expect(sent.status).toBe(200);
    const officer = await h.staff('caseOfficer');
    const view = (await h.view(officer.token, app.applicationNo)).body.data;
    const row = view.history.find((r) => r.reference === sent.body.data.reference);
    expect(row).toMatchObject({ documentType: 'LAYOUT_PLAN', revision: 'D' });
    expect(view.documents.some((d) => d.kind === 'layoutPlans' && d.fileName === 'plan-d.pdf')).toBe(true);
    // The signature it rests on, as verified (the iAM Smart sandbox's certificate on record).
    expect(view.followUpSignatures).toEqual([
      {
        reference: sent.body.data.reference,
        method: 'iamsmart',
        signer: expect.objectContaining({ method: 'iamsmart' }) as unknown,
        submittedAt: expect.any(String) as unknown,
      },
    ]);
  });
});

/** The newest issued document of `documentType` on the applicant's case page, downloaded as the applicant. */
async function downloadLatest(token: string, documentType: string): Promise<Uint8Array> {
  const current = await h.current(token);
  const row = current.body.data.history.find((r) => r.documentType === documentType);
  const doc = row?.documents[0];
  if (!doc) throw new Error(`no ${documentType} document on the case page`);
  expect(doc.downloadable).toBe(true);
  const file = await h.download(`/api/cases/current/documents/${doc.id}`, token);
  expect(file.status).toBe(200);
  return file.bytes;
}

describe('what the console joins from the update forms and the appointments (issues 11 and 12)', () => {
  it('shows every version of the information with what changed, and tells the active AP too', async () => {
    const me = await h.staff('caseOfficer', 'join.officer');
    const app = await h.loggedInCase('SUBMITTED');
    const db = h.database.db;
    const at = h.clock.now();
    await db.insert(caseVersions).values([
      {
        applicationId: app.id,
        version: 1,
        answers: { applicantNameEn: 'CHAN Tai Man' },
        reference: app.applicationNo,
        submittedBy: 'APPLICANT',
        createdAt: at,
      },
      {
        applicationId: app.id,
        version: 2,
        answers: { applicantNameEn: 'CHAN Tai Wai' },
        reference: `USI-${app.applicationNo}-1`,
        submittedBy: 'APPLICANT',
        createdAt: at,
      },
    ]);
    await insertAcceptedAppointment(db, {
      applicationId: app.id,
      identity: 'ap',
      nameEn: 'LEE Ka Yan',
      registrationNumber: 'AP(E) 2345',
      email: 'ap.console@example.hk',
      mobile: '61234567',
      expiryDate: '2030-12-31',
      language: 'en',
      invitedAt: at,
      acceptedAt: at,
    });

    const view = await h.view(me.token, app.applicationNo);
    expect(view.status).toBe(200);
    expect(view.body.data.versions.map((v) => v.version)).toEqual([1, 2]);
    expect(view.body.data.versions[1]?.changes).toEqual([
      { field: 'applicantNameEn', before: 'CHAN Tai Man', after: 'CHAN Tai Wai' },
    ]);

    await h.staffAct(me.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: me.id });
    const mails = h.smtp.mails.length;
    expect((await h.staffAct(me.token, app.applicationNo, 'case.acknowledge', 'SUBMITTED')).status).toBe(200);
    await h.messages.settled();
    const sent = h.smtp.mails.slice(mails);
    expect(sent.find((m) => m.to.includes(app.email))?.text).toContain('join.officer@bd.gov.hk');
    expect(sent.find((m) => m.to.includes('ap.console@example.hk'))?.text).toContain(
      'join.officer@bd.gov.hk',
    );
  });
});
