import type { Field } from '../../../machines/forms/types';
import { formatDate } from '../../components/format';

type T = (key: string, params?: Record<string, unknown>) => string;

/** A follow-up answer as the preview shows it, in the page's language. */
export function followUpAnswerText(field: Field, value: unknown, t: T, language: string): string {
  if (value === undefined || value === null || value === '') return t('case:preview.notGiven');
  switch (field.kind) {
    case 'radio':
    case 'select': {
      const option = field.options.find((o) => o.value === value);
      return option ? t(`forms:${option.labelKey}`) : typeof value === 'string' ? value : '';
    }
    case 'checkbox':
      return value === true ? t('case:preview.yes') : t('case:preview.no');
    case 'date':
      return typeof value === 'string' ? formatDate(`${value}T12:00:00+08:00`, language) : '';
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}
