import { formatInstant } from '../../machines/rules/dates';
import { isLanguage } from '../../machines/rules/language';

/** A date (and time) in the page's language, in Hong Kong time (machines/rules/dates.ts). */
export function formatDate(iso: string, language: string, withTime = false): string {
  return formatInstant(iso, isLanguage(language) ? language : 'en', withTime);
}
