import { useTranslation } from 'react-i18next';
import { formatDate } from '../components/format';

/**
 * A time as the console shows it: the date and time in Hong Kong time with the zone named ("26 Nov 2026,
 * 4:52 pm HKT"), so that an officer never has to guess whether a time is UTC (docs/dates.md).
 */
export function useConsoleTime(): (value: string | Date) => string {
  const { t, i18n } = useTranslation('console');
  return (value) => t('time.at', { time: formatDate(value, i18n.language, true) });
}
