import { createCalendarService } from '../../api/modules/shared/calendar';
import { addWorkingDays } from '../../machines/rules/working-days';

/**
 * The first `n` working days the inspection form accepts today (from the third working day on), by the
 * server's own calendar: the browser tests' server runs on the real clock.
 */
export function inspectionWorkingDays(n: number): string[] {
  const { today, holidays } = createCalendarService({ now: () => new Date() }).window();
  const set = new Set(holidays);
  const days = [addWorkingDays(today, 3, set)];
  while (days.length < n) days.push(addWorkingDays(days[days.length - 1]!, 1, set));
  return days;
}
