import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit } from '../../api/modules/shared';
import { applicationHistory } from '../../drizzle/schema';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import type { PerformanceData } from '../../machines/rules/pledges';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * GET /api/staff/performance (docs/decisions/044-pledges.md) on seeded cases of known dates, on the
 * harness clock's Monday 5 January 2026 in Hong Kong: the six months August 2025 – January 2026, each
 * stage done counted met or missed in the month it was done, and the median working days to a certificate.
 */

let h: ConsoleHarness;
let senior: StaffUser;
let admin: StaffUser;
let officer: StaffUser;

/** 10:00 in Hong Kong on an ISO date. */
const hk = (date: string) => new Date(`${date}T02:00:00Z`);

async function caseOf(
  status: CaseStatus,
  submitted: string,
  rows: [string, string, CaseStatus][],
  examined?: string,
) {
  const app = await h.submittedCase(status, hk(submitted));
  for (const [date, documentType, after] of rows)
    await h.database.db.insert(applicationHistory).values({
      applicationId: app.id,
      submissionDate: hk(date),
      documentType,
      status: after,
      submittedBy: 'BD',
      date: hk(date),
    });
  if (examined)
    await appendAudit(h.database.db, {
      at: hk(examined),
      actor: 'caseOfficer',
      actorRef: `staff:${officer.id}`,
      event: 'case.examine',
      applicationId: app.id,
    });
  return app;
}

beforeAll(async () => {
  h = await startConsoleHarness();
  senior = await h.staff('seniorOfficer', 'e2e.pledges.senior');
  admin = await h.staff('admin', 'e2e.pledges.admin');
  officer = await h.staff('caseOfficer', 'e2e.pledges.officer');
  // P: contact details on time, examination started 2 days late, a Letter of Requirements, the inspection
  // 7 working days after its request, the certificate on 12 December: 29 working days after submission.
  await caseOf(
    'CERTIFICATE_ISSUED',
    '2025-11-03',
    [
      ['2025-11-04', 'ACKNOWLEDGEMENT', 'ACKNOWLEDGED'],
      ['2025-11-20', 'LETTER_OF_REQUIREMENTS', 'LOR_ISSUED'],
      ['2025-12-01', 'INSPECTION_REQUEST', 'INSPECTION_REQUESTED'],
      ['2025-12-02', 'INSPECTION_NOTICE', 'INSPECTION_SCHEDULED'],
      ['2025-12-10', 'INSPECTION_REPORT', 'INSPECTED'],
      ['2025-12-12', 'CERTIFICATE', 'CERTIFICATE_ISSUED'],
    ],
    '2025-11-12',
  );
  // U: the certificate on 19 December, 24 working days after submission.
  await caseOf('CERTIFICATE_ISSUED', '2025-11-17', [
    ['2025-11-18', 'ACKNOWLEDGEMENT', 'ACKNOWLEDGED'],
    ['2025-11-19', 'LETTER_OF_REQUIREMENTS', 'LOR_ISSUED'],
    ['2025-12-15', 'INSPECTION_REQUEST', 'INSPECTION_REQUESTED'],
    ['2025-12-17', 'INSPECTION_REPORT', 'INSPECTED'],
    ['2025-12-19', 'CERTIFICATE', 'CERTIFICATE_ISSUED'],
  ]);
  // Q: contact details 4 working days after submission (late), the letter on time, awaiting compliance.
  await caseOf('LOR_ISSUED', '2025-09-01', [
    ['2025-09-05', 'ACKNOWLEDGEMENT', 'ACKNOWLEDGED'],
    ['2025-09-10', 'LETTER_OF_REQUIREMENTS', 'LOR_ISSUED'],
  ]);
  // R: acknowledged the next day; S: under examination; T: closed in June, before the six months.
  await caseOf('ACKNOWLEDGED', '2025-12-22', [['2025-12-23', 'ACKNOWLEDGEMENT', 'ACKNOWLEDGED']]);
  await caseOf('UNDER_EXAMINATION', '2026-01-02', []);
  await caseOf('CLOSED', '2025-05-02', [
    ['2025-05-05', 'ACKNOWLEDGEMENT', 'ACKNOWLEDGED'],
    ['2025-06-10', 'CERTIFICATE', 'CERTIFICATE_ISSUED'],
  ]);
});

afterAll(async () => {
  await h?.close();
});

const zero = { met: 0, missed: 0 };
const none = { contact: zero, examination: zero, lor: zero, inspection: zero, certificate: zero };

describe('the performance figures', () => {
  it('count open cases by stage, pledges met by month, and the median working days to a certificate', async () => {
    const reply = await h.staffCall<PerformanceData>('GET', '/api/staff/performance', senior.token);
    expect(reply.status).toBe(200);
    const data = reply.body.data;
    expect(data.today).toBe('2026-01-05');
    expect(data.stages.filter((s) => s.count > 0)).toEqual([
      { status: 'ACKNOWLEDGED', count: 1 },
      { status: 'UNDER_EXAMINATION', count: 1 },
      { status: 'LOR_ISSUED', count: 1 },
    ]);
    expect(data.months).toEqual([
      { month: '2025-08', pledges: none },
      { month: '2025-09', pledges: { ...none, contact: { met: 0, missed: 1 }, lor: { met: 1, missed: 0 } } },
      { month: '2025-10', pledges: none },
      {
        month: '2025-11',
        pledges: {
          ...none,
          contact: { met: 2, missed: 0 },
          examination: { met: 0, missed: 1 },
          lor: { met: 2, missed: 0 },
        },
      },
      {
        month: '2025-12',
        pledges: {
          ...none,
          contact: { met: 1, missed: 0 },
          inspection: { met: 2, missed: 0 },
          certificate: { met: 2, missed: 0 },
        },
      },
      { month: '2026-01', pledges: none },
    ]);
    expect(data.certificates).toEqual({ count: 2, medianWorkingDays: 26.5 });
  });

  it('is for senior officers and admins only', async () => {
    expect((await h.staffCall('GET', '/api/staff/performance', admin.token)).status).toBe(200);
    expect((await h.staffCall('GET', '/api/staff/performance', officer.token)).status).toBe(403);
    expect((await h.staffCall('GET', '/api/staff/performance', undefined)).status).toBe(401);
  });
});
