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
