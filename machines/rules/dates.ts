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

/** What a person reads as a date: a calendar date (`YYYY-MM-DD`), or an instant (ISO 8601 with its zone, a Date, ms). */
export type DateValue = string | Date | number;

/**
 * THE date of the portal, for every page, email, SMS and PDF a person reads (docs/dates.md): a calendar
 * date as it is ("1 Dec 2026" / "2026年12月1日"), an instant in Hong Kong time (Asia/Hong_Kong), with the
 * time when asked ("26 Nov 2026, 4:52 am" / "2026年11月26日 上午4:52") — never the UTC date, never the
 * browser's or the server's zone. A value that is not a date is returned as given.
 */
export function formatHkDate(value: DateValue, language: Language, withTime = false): string {
  if (typeof value === 'string' && ISO_DATE.test(value.trim())) return formatCalendarDate(value, language);
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return formatInstant(date.toISOString(), language, withTime);
}

/** The one date formatter of each language (`DATE_FORMATTERS.tc(value, withTime)`). */
export const DATE_FORMATTERS: Readonly<Record<Language, (value: DateValue, withTime?: boolean) => string>> = {
  en: (value, withTime) => formatHkDate(value, 'en', withTime),
  tc: (value, withTime) => formatHkDate(value, 'tc', withTime),
  sc: (value, withTime) => formatHkDate(value, 'sc', withTime),
};

/** A bilingual document's date (the PDFs print English and Chinese): "26 Nov 2026, 4:52 am / 2026年11月26日 上午4:52". */
export function formatHkDateBilingual(value: DateValue, withTime = false): string {
  return `${formatHkDate(value, 'en', withTime)} / ${formatHkDate(value, 'tc', withTime)}`;
}

/**
 * A message's params with each calendar date (`YYYY-MM-DD`) written for a person in `language`: the form
 * rules name dates in their params ("Choose a date on or after {{date}}"), and the text shows "1 Dec 2026".
 */
export function formatDateParams<T extends Readonly<Record<string, unknown>>>(
  params: T,
  language: Language,
): T {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      typeof v === 'string' && ISO_DATE.test(v) ? formatCalendarDate(v, language) : v,
    ]),
  ) as T;
}
