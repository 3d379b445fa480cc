/**
 * Working days as government service pledges count them: not a Saturday, a Sunday or a general holiday.
 * The holidays come from the API (GET /api/calendar, made by a maintained holiday library on the server:
 * api/modules/shared/calendar.ts), so the browser and the API apply the same rule to the same list.
 * Dates are ISO calendar dates (YYYY-MM-DD) in Hong Kong.
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export type Holidays = ReadonlySet<string>;

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function isWeekend(iso: string): boolean {
  const day = new Date(`${iso}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

export function isWorkingDay(iso: string, holidays: Holidays): boolean {
  return !isWeekend(iso) && !holidays.has(iso);
}

/** The `n`th working day after `iso` (n ≥ 1), e.g. a due date 2 working days after a submission. */
export function addWorkingDays(iso: string, n: number, holidays: Holidays): string {
  let day = iso;
  for (let left = n; left > 0;) {
    day = addDays(day, 1);
    if (isWorkingDay(day, holidays)) left -= 1;
  }
  return day;
}

/** Today's date in Hong Kong (UTC+8, no daylight saving). */
export function hongKongDate(now: Date): string {
  return new Date(now.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}
