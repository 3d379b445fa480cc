import { formatHkDate, type DateValue } from '../../machines/rules/dates';
import { isLanguage } from '../../machines/rules/language';

/**
 * A date (and time) in the page's language, in Hong Kong time: the portal's one formatter
 * (`formatHkDate`, machines/rules/dates.ts). A calendar date (`2026-12-01`) is shown as that day.
 */
export function formatDate(value: DateValue, language: string, withTime = false): string {
  return formatHkDate(value, isLanguage(language) ? language : 'en', withTime);
}
