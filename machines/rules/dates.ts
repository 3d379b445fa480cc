import type { Language } from './language';

/**
 * Dates as the portal shows them, one way in every screen and document: the person's language, Hong
 * Kong's conventions ("24 Nov 2026", "2026年11月24日"), never the browser's or the server's own locale.
 */
export const DATE_LOCALES: Record<Language, string> = { en: 'en-HK', tc: 'zh-HK', sc: 'zh-CN' };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date as typed (`YYYY-MM-DD`, no time zone): "24 Nov 2026" / "2026年11月24日"; else as given. */
export function formatCalendarDate(iso: string, language: Language): string {
  const m = ISO_DATE.exec(iso.trim());
  if (!m) return iso;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(m[3])) return iso;
  return new Intl.DateTimeFormat(DATE_LOCALES[language], { dateStyle: 'medium', timeZone: 'UTC' }).format(
    date,
  );
}

/** An instant (ISO 8601 with its zone) in Hong Kong time: "24 Nov 2026", with the time when asked. */
export function formatInstant(iso: string, language: Language, withTime = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(DATE_LOCALES[language], {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
    timeZone: 'Asia/Hong_Kong',
  }).format(date);
}
