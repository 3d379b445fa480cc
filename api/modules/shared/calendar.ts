import Holidays from 'date-holidays';
import { addDays, hongKongDate } from '../../../machines/rules/working-days';
import type { Clock } from '../../clock';

/**
 * Hong Kong general holidays, from the maintained `date-holidays` library (it knows the lunar dates and the
 * substitute days: docs/decisions/009-case-lifecycle.md), for the working-day rules of machines/rules/
 * working-days.ts. The browser gets the same list from the API with each case, so both check alike.
 */
export interface CalendarService {
  /** Today in Hong Kong and the general holidays from a week ago to `days` ahead (ISO dates). */
  window(days?: number): { today: string; holidays: string[] };
  /** The general holidays between two ISO dates, inclusive. */
  holidaysBetween(from: string, to: string): string[];
}

const hk = new Holidays('HK');
const byYear = new Map<number, string[]>();
const ofYear = (year: number): string[] => {
  let list = byYear.get(year);
  if (!list) {
    list = hk
      .getHolidays(year)
      .filter((h) => h.type === 'public')
      .map((h) => h.date.slice(0, 10));
    byYear.set(year, list);
  }
  return list;
};

/** The Hong Kong general holidays between two ISO dates, inclusive. */
export function holidaysBetween(from: string, to: string): string[] {
  const years: number[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y += 1) years.push(y);
  return [...new Set(years.flatMap(ofYear))].filter((d) => d >= from && d <= to).sort();
}

export function createCalendarService(clock: Clock): CalendarService {
  return {
    holidaysBetween,
    window(days = 120) {
      const today = hongKongDate(clock.now());
      return { today, holidays: holidaysBetween(addDays(today, -7), addDays(today, days)) };
    },
  };
}
