import { describe, expect, it } from 'vitest';
import { holidaysBetween } from '../../api/modules/shared/calendar';
import {
  PLEDGES,
  isWaitingDay,
  pledgeDueDate,
  pledgeOfStatus,
  pledgeStanding,
  waitingSpans,
  workingDaysElapsed,
} from '../../machines/rules/pledges';

/**
 * The performance pledges (machines/rules/pledges.ts, docs/decisions/044-pledges.md) on the real Hong Kong
 * calendar of autumn 2026: Wednesday 30 September submitted, Thursday 1 October (National Day) a general
 * holiday, 3–4 October a weekend.
 */
const holidays = new Set(holidaysBetween('2026-09-01', '2027-03-31'));
const SUBMITTED = '2026-09-30';

describe('the settings', () => {
  it('promise contact details within 2 working days (spec §1) and set the other stages', () => {
    expect(PLEDGES.contact.workingDays).toBe(2);
    expect(PLEDGES.examination.workingDays).toBe(5);
    expect(PLEDGES.lor.workingDays).toBe(30);
    expect(PLEDGES.inspection).toEqual({ workingDays: 10, from: 'inspectionRequest' });
    expect(PLEDGES.certificate.workingDays).toBe(30);
  });

  it('give each open stage the department works on its pledge, and none while the applicant is to act', () => {
    expect(pledgeOfStatus('SUBMITTED')).toBe('contact');
    expect(pledgeOfStatus('ACKNOWLEDGED')).toBe('examination');
    expect(pledgeOfStatus('UNDER_EXAMINATION')).toBe('lor');
    expect(pledgeOfStatus('INSPECTION_SCHEDULED')).toBe('inspection');
    expect(pledgeOfStatus('INSPECTED')).toBe('certificate');
    expect(pledgeOfStatus('LOR_ISSUED')).toBeNull();
    expect(pledgeOfStatus('COMPLIANCE_REPORTED')).toBeNull();
    expect(pledgeOfStatus('CLOSED')).toBeNull();
  });
});

describe('working days elapsed', () => {
  it('skips the holiday and the weekend', () => {
    expect(holidays.has('2026-10-01')).toBe(true);
    // 2 Oct (Fri), 5, 6, 7, 8 (Mon–Thu)
    expect(workingDaysElapsed(SUBMITTED, '2026-10-08', holidays)).toBe(5);
    expect(workingDaysElapsed(SUBMITTED, '2026-10-04', holidays)).toBe(1);
    expect(workingDaysElapsed(SUBMITTED, SUBMITTED, holidays)).toBe(0);
  });

  it('stops the clock from the day after a request until the day it is answered', () => {
    const spans = [{ from: '2026-10-06', to: '2026-10-09' }];
    expect(isWaitingDay('2026-10-06', spans)).toBe(false);
    expect(isWaitingDay('2026-10-07', spans)).toBe(true);
    expect(isWaitingDay('2026-10-09', spans)).toBe(true);
    expect(isWaitingDay('2026-10-12', spans)).toBe(false);
    // 2, 5, 6, then 12, 13, 14 October
    expect(workingDaysElapsed(SUBMITTED, '2026-10-14', holidays, spans)).toBe(6);
    expect(workingDaysElapsed(SUBMITTED, '2026-10-14', holidays, [{ from: '2026-10-06' }])).toBe(3);
  });
});

describe('due dates', () => {
  it('fall on the nth working day after submission, holidays excluded', () => {
    expect(pledgeDueDate(SUBMITTED, 2, holidays)).toBe('2026-10-05');
    expect(pledgeDueDate(SUBMITTED, 5, holidays)).toBe('2026-10-08');
    // Christmas (25–26 Dec) and New Year's Day on the way: 30 working days after 20 November
    expect(pledgeDueDate('2026-11-20', 30, holidays)).toBe('2027-01-05');
  });

  it('move by the waiting days, and are unknown while a wait is still open', () => {
    expect(pledgeDueDate(SUBMITTED, 5, holidays, [{ from: '2026-10-06', to: '2026-10-09' }])).toBe('2026-10-13');
    expect(pledgeDueDate(SUBMITTED, 5, holidays, [{ from: '2026-10-06' }])).toBeNull();
    // A wait that began after the due date does not move it
    expect(pledgeDueDate(SUBMITTED, 5, holidays, [{ from: '2026-10-09' }])).toBe('2026-10-08');
  });
});

describe('met, due or overdue', () => {
  const base = { pledge: 'examination', start: SUBMITTED, holidays } as const;
  it('is due before the due date, due today on it, overdue by working days after it', () => {
    expect(pledgeStanding({ ...base, today: '2026-10-07' })).toEqual({
      pledge: 'examination',
      due: '2026-10-08',
      state: 'due',
      overdueBy: 0,
    });
    expect(pledgeStanding({ ...base, today: '2026-10-08' }).state).toBe('dueToday');
    expect(pledgeStanding({ ...base, today: '2026-10-09' })).toMatchObject({ state: 'overdue', overdueBy: 1 });
    // Friday 9, Monday 12, Tuesday 13: three working days late; a Saturday counts as the Friday
    expect(pledgeStanding({ ...base, today: '2026-10-13' }).overdueBy).toBe(3);
    expect(pledgeStanding({ ...base, today: '2026-10-10' }).overdueBy).toBe(1);
  });

  it('is paused while the applicant is asked for information, and resumes when answered', () => {
    expect(pledgeStanding({ ...base, today: '2026-10-20', spans: [{ from: '2026-10-06' }] })).toEqual({
      pledge: 'examination',
      due: null,
      state: 'paused',
      overdueBy: 0,
    });
    const answered = [{ from: '2026-10-06', to: '2026-10-09' }];
    expect(pledgeStanding({ ...base, today: '2026-10-13', spans: answered }).state).toBe('dueToday');
    expect(pledgeStanding({ ...base, today: '2026-10-14', spans: answered })).toMatchObject({
      due: '2026-10-13',
      state: 'overdue',
      overdueBy: 1,
    });
  });

  it('is met when done by the due date, missed by the working days late otherwise', () => {
    expect(pledgeStanding({ ...base, today: '2026-12-01', done: '2026-10-08' }).state).toBe('met');
    expect(pledgeStanding({ ...base, today: '2026-12-01', done: '2026-10-12' })).toMatchObject({
      state: 'missed',
      overdueBy: 2,
    });
    // Done while a request was still open: the wait counts until then
    expect(
      pledgeStanding({ ...base, today: '2026-12-01', done: '2026-10-12', spans: [{ from: '2026-10-06' }] }).state,
    ).toBe('met');
  });
});

describe('waiting spans from the case history', () => {
  it('run from a Letter of Requirements until the inspection is requested, with the information requests', () => {
    const rows = [
      { date: SUBMITTED, status: 'SUBMITTED' },
      { date: '2026-10-02', status: 'ACKNOWLEDGED' },
      { date: '2026-10-20', status: 'LOR_ISSUED' },
      { date: '2026-10-22', status: 'LOR_ISSUED' },
      { date: '2026-10-30', status: 'COMPLIANCE_REPORTED' },
      { date: '2026-11-05', status: 'INSPECTION_REQUESTED' },
      { date: '2026-11-12', status: 'INSPECTED' },
      { date: '2026-11-13', status: 'LOR_ISSUED' },
    ];
    const requests = [{ from: '2026-10-06', to: '2026-10-09' }];
    expect(waitingSpans(rows, requests)).toEqual([
      { from: '2026-10-20', to: '2026-11-05' },
      { from: '2026-11-13' },
      { from: '2026-10-06', to: '2026-10-09' },
    ]);
  });
});
