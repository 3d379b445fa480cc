import { parseDate } from '@internationalized/date';
import { DateField as AriaDateField, DateInput, DateSegment, I18nProvider } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { DATE_LOCALES } from '../../machines/rules/dates';
import { isLanguage } from '../../machines/rules/language';
import { FieldHead } from './FieldHead';

interface Props {
  id: string;
  label: string;
  description?: string;
  errorMessage?: string | null;
  isRequired?: boolean;
  /** `YYYY-MM-DD`, or '' when empty. */
  value: string;
  onChange: (value: string) => void;
}

/** The answer as a date for the field, or null when it is empty or not a whole date. */
function toDate(value: string) {
  try {
    return value ? parseDate(value) : null;
  } catch {
    return null;
  }
}

/**
 * A date typed in day, month and year segments in the page's language and Hong Kong's order
 * (en-HK and zh-HK day/month/year, zh-CN year/month/day: machines/rules/dates.ts), never the browser's own
 * locale as `<input type="date">` shows it. The answer stays `YYYY-MM-DD`.
 */
export function DateField({ id, label, description, errorMessage, isRequired, value, onChange }: Props) {
  const { i18n } = useTranslation();
  const locale = DATE_LOCALES[isLanguage(i18n.language) ? i18n.language : 'en'];
  return (
    <I18nProvider locale={locale}>
      <AriaDateField
        className="field"
        value={toDate(value)}
        onChange={(d) => onChange(d ? d.toString() : '')}
        isInvalid={Boolean(errorMessage)}
        isRequired={isRequired}
        granularity="day"
        id={id}
      >
        <FieldHead label={label} description={description} errorMessage={errorMessage} />
        <DateInput className="field__input date-input">
          {(segment) => <DateSegment segment={segment} className="date-input__segment" />}
        </DateInput>
      </AriaDateField>
    </I18nProvider>
  );
}
