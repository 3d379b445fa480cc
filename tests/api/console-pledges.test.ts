import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationHistory } from '../../drizzle/schema';
import { informationRequests } from '../../drizzle/schema-staff';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * The work queue shows each open case's current performance pledge (docs/decisions/044-pledges.md): on the
 * harness clock's Monday 5 January 2026 in Hong Kong, after Christmas (25–26 December) and New Year's Day,
 * with the clock stopped while an information request is open or a Letter of Requirements awaits the
 * applicant.
 */

let h: ConsoleHarness;
let officer: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'e2e.pledges.api');
});

afterAll(async () => {
  await h?.close();
});

/** 10:00 in Hong Kong on an ISO date. */
const hk = (date: string) => new Date(`${date}T02:00:00Z`);

/** A case submitted on `submitted`, with later status rows and information requests ([asked, answered]). */
async function caseOf(
  status: CaseStatus,
  submitted: string,
  rows: [string, string, CaseStatus][] = [],
  requests: [string, string | null][] = [],
) {
  const app = await h.submittedCase(status, hk(submitted));
  const db = h.database.db;
  for (const [date, documentType, after] of rows)
    await db.insert(applicationHistory).values({
      applicationId: app.id,
      submissionDate: hk(date),
      documentType,
      status: after,
      submittedBy: 'BD',
      date: hk(date),
    });
  for (const [asked, answered] of requests)
    await db.insert(informationRequests).values({
      applicationId: app.id,
      staffId: officer.id,
      documentTypes: ['other'],
      otherDocument: 'A plan',
      replyBy: '2026-02-27',
      createdAt: hk(asked),
      answeredAt: answered ? hk(answered) : null,
    });
  return app;
}

const pledgeOf = async (applicationNo: string) => {
  const reply = await h.queue(officer.token, `?applicationNo=${applicationNo}`);
  expect(reply.status).toBe(200);
  return reply.body.data.cases[0]?.pledge;
};

describe("the queue's pledge of each open case", () => {
  it('gives the contact details 2 working days: due tomorrow, and due today across New Year', async () => {
    const friday = await caseOf('SUBMITTED', '2026-01-02');
    expect(await pledgeOf(friday.applicationNo)).toEqual({
      pledge: 'contact',
      due: '2026-01-06',
      state: 'due',
      overdueBy: 0,
    });
    const newYearsEve = await caseOf('SUBMITTED', '2025-12-31');
    expect(await pledgeOf(newYearsEve.applicationNo)).toMatchObject({ due: '2026-01-05', state: 'dueToday' });
  });

  it('counts the examination late by working days, Christmas and New Year not counted', async () => {
    const app = await caseOf('ACKNOWLEDGED', '2025-12-19', [
      ['2025-12-22', 'ACKNOWLEDGEMENT', 'ACKNOWLEDGED'],
    ]);
    expect(await pledgeOf(app.applicationNo)).toEqual({
      pledge: 'examination',
      due: '2025-12-30',
      state: 'overdue',
      overdueBy: 3,
    });
  });

  it('stops the clock while a request for information is open, and moves the due date by its days', async () => {
    const open = await caseOf('UNDER_EXAMINATION', '2025-12-19', [], [['2025-12-22', null]]);
    expect(await pledgeOf(open.applicationNo)).toEqual({
      pledge: 'lor',
      due: null,
      state: 'paused',
      overdueBy: 0,
    });
    const answered = await caseOf('UNDER_EXAMINATION', '2025-11-17', [], [['2025-11-24', '2025-12-01']]);
    expect(await pledgeOf(answered.applicationNo)).toMatchObject({ due: '2026-01-08', state: 'due' });
    const none = await caseOf('UNDER_EXAMINATION', '2025-11-17');
    expect(await pledgeOf(none.applicationNo)).toMatchObject({
      due: '2025-12-31',
      state: 'overdue',
      overdueBy: 2,
    });
  });

  it('counts the inspection from its request, and none while the Letter of Requirements awaits the applicant', async () => {
    const lor: [string, string, CaseStatus] = ['2025-11-20', 'LETTER_OF_REQUIREMENTS', 'LOR_ISSUED'];
    const scheduled = await caseOf('INSPECTION_SCHEDULED', '2025-11-03', [
      lor,
      ['2025-12-22', 'INSPECTION_REQUEST', 'INSPECTION_REQUESTED'],
      ['2025-12-23', 'INSPECTION_NOTICE', 'INSPECTION_SCHEDULED'],
    ]);
    expect(await pledgeOf(scheduled.applicationNo)).toEqual({
      pledge: 'inspection',
      due: '2026-01-08',
      state: 'due',
      overdueBy: 0,
    });
    const waiting = await caseOf('LOR_ISSUED', '2025-11-03', [lor]);
    expect(await pledgeOf(waiting.applicationNo)).toBeNull();
    const closed = await caseOf('CLOSED', '2025-11-03', [lor]);
    expect(await pledgeOf(closed.applicationNo)).toBeNull();
  });

  it('pauses when the officer asks for information through the console', async () => {
    const app = await h.submittedCase('ACKNOWLEDGED', hk('2026-01-02'));
    expect(await pledgeOf(app.applicationNo)).toMatchObject({ pledge: 'examination', due: '2026-01-09' });
    await h.staffAct(officer.token, app.applicationNo, 'case.assign', 'ACKNOWLEDGED', {
      staffId: officer.id,
    });
    const asked = await h.staffAct(officer.token, app.applicationNo, 'information.request', 'ACKNOWLEDGED', {
      documentTypes: ['other'],
      otherDocument: 'A fire safety plan',
      replyBy: '2026-01-20',
    });
    expect(asked.status).toBe(200);
    expect(await pledgeOf(app.applicationNo)).toMatchObject({ state: 'paused', due: null });
  });
});
