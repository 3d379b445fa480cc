import type { Language } from '../../machines/rules/language';

const LOCALES: Record<Language, string> = { en: 'en-HK', tc: 'zh-HK', sc: 'zh-CN' };

/** A date (and time) in the page's language, in Hong Kong time. */
export function formatDate(iso: string, language: string, withTime = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const locale = LOCALES[language as Language] ?? 'en-HK';
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
    timeZone: 'Asia/Hong_Kong',
  }).format(date);
}
