import { describe, expect, it } from 'vitest';
import { demoFinishedCases, demoMonthShift } from '../../drizzle/demo-performance';

describe("the performance page's demo cases (drizzle/demo-performance.ts)", () => {
  it('keep their dates in the month they are written for, in Hong Kong time', () => {
    expect(demoMonthShift(new Date('2026-11-28T12:00:00Z'))).toBe(0);
    // 30 Nov 16:30 UTC is 1 Dec in Hong Kong.
    expect(demoMonthShift(new Date('2026-11-30T16:30:00Z'))).toBe(1);
    const [first] = demoFinishedCases(new Date('2026-11-28T12:00:00Z'));
    expect(first?.history.at(-1)?.submitted).toBe('2026-07-20T10:00:00');
  });

  it('move on by whole months, a day past the month’s end to its last day', () => {
    const later = demoFinishedCases(new Date('2027-02-10T04:00:00Z'));
    expect(later[0]?.history.at(-1)?.submitted).toBe('2026-10-20T10:00:00');
    // Case 3's Letter of Requirements of 31 Aug 2026 falls on 30 Nov 2026.
    expect(later[2]?.history.find((e) => e.status === 'LOR_ISSUED')?.recorded).toBe('2026-11-30T10:00:00');
    // Across a year: January 2027 is two months on.
    expect(demoFinishedCases(new Date('2027-01-05T04:00:00Z'))[3]?.history.at(-1)?.submitted).toBe(
      '2027-01-16T10:00:00',
    );
  });
});
