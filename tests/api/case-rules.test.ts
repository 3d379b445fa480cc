import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuedDocuments } from '../../drizzle/schema-staff';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import { hongKongDate } from '../../machines/rules/working-days';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';
import { formatHkDate } from '../../machines/rules/dates';

/**
 * Each rule of the case that spans flows, tried through the API the way an officer would break it, and
 * each correction made (docs/flows/case-lifecycle.md, "The case's rules"): the refusal is 409 CASE_RULE
 * with the message in the caller's language and at the field it is about; nothing is written.
 */
let h: ConsoleHarness;
let officer: StaffUser;
let senior: StaffUser;
let senior2: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'rules.officer');
  senior = await h.staff('seniorOfficer', 'rules.senior');
  senior2 = await h.staff('seniorOfficer', 'rules.senior2');
});

afterAll(async () => {
  await h?.close();
});

const LANGS = ['en', 'sc', 'tc'] as const;

/** A case of the officer's in `status`, the applicant logged in. */
async function caseIn(status: CaseStatus) {
  const app = await h.loggedInCase(status);
  // A decided case takes no assignment; the senior officer acts on it.
  if (status === 'CERTIFICATE_ISSUED') return app;
  const assigned = await h.staffAct(senior.token, app.applicationNo, 'case.assign', status, {
    staffId: officer.id,
  });
  expect(assigned.status).toBe(200);
  return app;
}

/** An inspection the department scheduled on `date` (as `inspection.schedule` records it). */
async function scheduledOn(applicationId: number, date: string, reference: string) {
  await h.database.db.insert(issuedDocuments).values({
    applicationId,
    event: 'inspection.schedule',
    reference,
    data: { date, window: 'AM', officerId: officer.id },
    staffId: officer.id,
    createdAt: h.clock.now(),
  });
}

function pdfText(bytes: Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'case-rules-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** The refusal in each language: status, code, message, and that the case did not move. */
async function refusedInEachLanguage(
  applicationNo: string,
  event: string,
  status: CaseStatus,
  answers: Record<string, unknown>,
  token = officer.token,
) {
  const send = (lang?: string) =>
    event === 'certificate.issue'
      ? h.propose(token, applicationNo, event, status, answers, lang)
      : h.staffAct(token, applicationNo, event, status, answers, lang);
  const messages: string[] = [];
  for (const lang of LANGS) {
    // A decision is refused already when it is proposed (docs/decisions/040-four-eyes-decisions.md).
    const res = await send(lang);
    expect([res.status, res.body.meta.code]).toEqual([409, 'CASE_RULE']);
    messages.push(res.body.meta.message);
  }
  expect((await h.view(officer.token, applicationNo)).body.data.status).toBe(status);
  return { messages, last: await send() };
}

describe('a certificate only after a passed inspection and with no request open', () => {
  it('refuses the certificate after "Did not pass", in three languages, and offers a further letter', async () => {
    const app = await caseIn('INSPECTION_SCHEDULED');
    const today = hongKongDate(h.clock.now());
    await scheduledOn(app.id, today, `ISN-${app.applicationNo}-1`);
    const failed = await h.staffAct(
      officer.token,
      app.applicationNo,
      'inspection.record',
      'INSPECTION_SCHEDULED',
      {
        result: 'FAIL',
      },
    );
    expect(failed.body.data.status).toBe('INSPECTED');
    const view = (await h.view(officer.token, app.applicationNo)).body.data;
    expect(view.allowed).not.toContain('certificate.issue');
    expect(view.allowed).toEqual(expect.arrayContaining(['lor.issue']));
    expect(view.rules.inspection).toEqual({ date: today, result: 'FAIL' });
    const { messages } = await refusedInEachLanguage(app.applicationNo, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    expect(messages).toEqual([
      'The certificate cannot be issued: no inspection of this round has been recorded as passed. Issue a further Letter of Requirements or reject the application instead.',
      '未能发出证明书：本轮巡查未有记录为合格。请改为发出另一份规定事项函件或拒绝申请。',
      '未能發出證明書：本輪巡查未有記錄為合格。請改為發出另一份規定事項函件或拒絕申請。',
    ]);
  });

  it('refuses it while an information request is open, and issues it once the request is withdrawn', async () => {
    const app = await caseIn('INSPECTION_SCHEDULED');
    await scheduledOn(app.id, hongKongDate(h.clock.now()), `ISN-${app.applicationNo}-1`);
    await h.staffAct(officer.token, app.applicationNo, 'inspection.record', 'INSPECTION_SCHEDULED', {
      result: 'PASS',
    });
    const asked = await h.staffAct(officer.token, app.applicationNo, 'information.request', 'INSPECTED', {
      documentTypes: ['layoutPlans'],
      replyBy: h.workingDays(3)[2],
    });
    expect(asked.status).toBe(200);
    const { messages } = await refusedInEachLanguage(app.applicationNo, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    expect(messages[0]).toBe(
      'The certificate cannot be issued while a request for further information is open. Wait for the reply, or withdraw the request first.',
    );
    const requestId = (await h.view(officer.token, app.applicationNo)).body.data.requests[0]!.id;
    const withdrawn = await h.staffAct(
      officer.token,
      app.applicationNo,
      'information.withdraw',
      'INSPECTED',
      {
        requestId,
        reason: 'The plans on file are enough.',
      },
    );
    expect(withdrawn.status).toBe(200);
    // The applicant sees it withdrawn, no longer a to-do.
    const seen = (await h.current(app.token)).body.data.requests[0]!;
    expect(seen.withdrawnAt).not.toBeNull();
    expect(seen.overdue).toBe(false);
    // A second withdrawal names a request that is no longer open.
    const again = await h.staffAct(officer.token, app.applicationNo, 'information.withdraw', 'INSPECTED', {
      requestId,
    });
    expect([again.status, again.body.meta.code]).toEqual([409, 'CASE_RULE']);
    const cert = await h.decide(
      officer.token,
      senior.token,
      app.applicationNo,
      'certificate.issue',
      'INSPECTED',
      {
        kind: 'CERTIFICATE',
      },
    );
    expect(cert.body.data.status).toBe('CERTIFICATE_ISSUED');
  });
});

describe('inspection dates', () => {
  it('refuses a Sunday, a holiday and a past date at the date field, and a result before the date', async () => {
    const app = await caseIn('INSPECTION_REQUESTED');
    const base = { window: 'AM', officerId: officer.id };
    // 2026-01-05 is the harness's Monday; the 11th a Sunday, 2026-01-01 a holiday and past.
    const sunday = await refusedInEachLanguage(
      app.applicationNo,
      'inspection.schedule',
      'INSPECTION_REQUESTED',
      {
        ...base,
        date: '2026-01-11',
      },
    );
    expect(sunday.messages).toEqual([
      'The inspection date must be a working day: not a Saturday, a Sunday or a public holiday.',
      '巡查日期必须是工作日，不可以是星期六、星期日或公众假期。',
      '巡查日期必須是工作天，不可以是星期六、星期日或公眾假期。',
    ]);
    expect(sunday.last.body.data).toMatchObject({
      rule: 'inspectionDateNotWorkingDay',
      errors: [{ path: 'answers.date' }],
    });
    const past = await refusedInEachLanguage(
      app.applicationNo,
      'inspection.schedule',
      'INSPECTION_REQUESTED',
      {
        ...base,
        date: '2026-01-02',
      },
    );
    expect(past.messages[0]).toBe('The inspection date must be today (5 Jan 2026) or later.');
    const later = h.workingDays(1)[0]!;
    const scheduled = await h.staffAct(
      officer.token,
      app.applicationNo,
      'inspection.schedule',
      'INSPECTION_REQUESTED',
      {
        ...base,
        date: later,
      },
    );
    expect(scheduled.body.data.status).toBe('INSPECTION_SCHEDULED');
    const early = await refusedInEachLanguage(
      app.applicationNo,
      'inspection.record',
      'INSPECTION_SCHEDULED',
      {
        result: 'PASS',
      },
    );
    expect(early.messages[2]).toBe(`只可在巡查日期（${formatHkDate(later, 'tc')}）當日或以後記錄巡查結果。`);
    // Moved, with a reason, to another working day; then cancelled back to waiting for a date.
    const [, moveTo] = h.workingDays(2);
    const moved = await h.staffAct(
      officer.token,
      app.applicationNo,
      'inspection.reschedule',
      'INSPECTION_SCHEDULED',
      {
        ...base,
        date: moveTo,
        reason: 'The inspecting officer is on leave.',
      },
    );
    expect(moved.body.data.status).toBe('INSPECTION_SCHEDULED');
    expect((await h.view(officer.token, app.applicationNo)).body.data.rules.inspection).toEqual({
      date: moveTo,
      result: null,
    });
    const cancelled = await h.staffAct(
      officer.token,
      app.applicationNo,
      'inspection.cancel',
      'INSPECTION_SCHEDULED',
      {
        reason: 'The premises are closed for repairs.',
      },
    );
    expect(cancelled.body.data.status).toBe('INSPECTION_REQUESTED');
    expect((await h.view(officer.token, app.applicationNo)).body.data.rules.inspection).toBeNull();
  });
});

describe('reply-by dates', () => {
  it('refuses a date too soon and a weekend, and extends an open request keeping the earlier date', async () => {
    const app = await caseIn('UNDER_EXAMINATION');
    const soon = await refusedInEachLanguage(app.applicationNo, 'information.request', 'UNDER_EXAMINATION', {
      documentTypes: ['layoutPlans'],
      replyBy: '2026-01-06',
    });
    expect(soon.messages).toEqual([
      'The reply-by date must leave the applicant at least 5 working days: 12 Jan 2026 or later.',
      '回复限期必须给予申请人最少 5 个工作日，即 2026年1月12日 或以后。',
      '回覆限期必須給予申請人最少 5 個工作天，即 2026年1月12日 或以後。',
    ]);
    expect(soon.last.body.data).toMatchObject({ errors: [{ path: 'answers.replyBy' }] });
    const weekend = await h.staffAct(
      officer.token,
      app.applicationNo,
      'information.request',
      'UNDER_EXAMINATION',
      {
        documentTypes: ['layoutPlans'],
        replyBy: '2026-01-17',
      },
    );
    expect(weekend.body.meta.message).toBe(
      'The reply-by date must be a working day: not a Saturday, a Sunday or a public holiday.',
    );
    expect(
      (
        await h.staffAct(officer.token, app.applicationNo, 'information.request', 'UNDER_EXAMINATION', {
          documentTypes: ['layoutPlans'],
          replyBy: '2026-01-12',
        })
      ).status,
    ).toBe(200);
    const requestId = (await h.view(officer.token, app.applicationNo)).body.data.requests[0]!.id;
    const extended = await h.staffAct(
      officer.token,
      app.applicationNo,
      'information.extend',
      'UNDER_EXAMINATION',
      {
        requestId,
        replyBy: '2026-01-19',
        reason: 'The applicant asked for more time.',
      },
    );
    expect(extended.status).toBe(200);
    const seen = (await h.current(app.token)).body.data.requests[0]!;
    expect(seen).toMatchObject({ replyBy: '2026-01-19', earlierReplyBy: ['2026-01-12'] });
  });
});

describe('rejection and corrections', () => {
  it('issues a rejection letter with the reason the applicant sees, and a senior officer can reopen', async () => {
    const app = await caseIn('UNDER_EXAMINATION');
    const reason = 'The premises are not the ones named in the application.';
    const rejected = await h.decide(
      officer.token,
      senior.token,
      app.applicationNo,
      'case.reject',
      'UNDER_EXAMINATION',
      {
        reason,
      },
    );
    expect(rejected.body.data.status).toBe('REJECTED');
    const row = (await h.current(app.token)).body.data.history.find(
      (r) => r.documentType === 'REJECTION_NOTICE',
    );
    const doc = row?.documents[0];
    expect(doc).toBeDefined();
    const file = await h.download(`/api/cases/current/documents/${doc!.id}`, app.token);
    expect(file.status).toBe(200);
    const text = pdfText(file.bytes);
    expect(text).toContain('Rejection of Application');
    expect(text).toContain(reason);
    // Only a senior officer reopens; the case examines again, with a letter saying why.
    const byOfficer = await h.staffAct(officer.token, app.applicationNo, 'case.reopen', 'REJECTED', {
      reason: 'x',
    });
    expect(byOfficer.status).toBe(409);
    expect(byOfficer.body.meta.message).toContain('Rejected');
    const reopened = await h.staffAct(senior.token, app.applicationNo, 'case.reopen', 'REJECTED', {
      reason: 'The applicant showed the premises are the ones named.',
    });
    expect(reopened.body.data.status).toBe('UNDER_EXAMINATION');
  });

  it('withdraws a Letter of Requirements and revokes a certificate, each with a letter', async () => {
    const lorCase = await caseIn('LOR_ISSUED');
    const withdrawn = await h.staffAct(senior.token, lorCase.applicationNo, 'lor.withdraw', 'LOR_ISSUED', {
      reason: 'The letter named the wrong premises.',
    });
    expect(withdrawn.body.data.status).toBe('UNDER_EXAMINATION');
    const history = (await h.current(lorCase.token)).body.data.history;
    expect(history.find((r) => r.documentType === 'LOR_WITHDRAWAL')?.documents).toHaveLength(1);

    const certified = await caseIn('CERTIFICATE_ISSUED');
    const revoked = await h.decide(
      senior2.token,
      senior.token,
      certified.applicationNo,
      'certificate.revoke',
      'CERTIFICATE_ISSUED',
      {
        reason: 'Unauthorised works were found at the premises.',
      },
    );
    expect(revoked.body.data.status).toBe('INSPECTED');
    // No passed inspection on record for this case: it cannot simply be reissued.
    const reissue = await h.propose(senior.token, certified.applicationNo, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    expect([reissue.status, reissue.body.meta.code]).toEqual([409, 'CASE_RULE']);
    expect(reissue.body.meta.message).toContain('no inspection of this round has been recorded as passed');
  });
});
