/**
 * Today's calendar date in Hong Kong (YYYY-MM-DD), whatever the zone of the browser or the server: the
 * day a form's "not in the future" and "not expired" rules compare with.
 */
export function hongKongToday(now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Hong_Kong',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Hong Kong time (UTC+8, no summer time), as the department writes it: 2026-11-22 14:05. */
export function hongKongTime(at: Date): string {
  const local = new Date(at.getTime() + 8 * 3_600_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)}`;
}
