import { useTranslation } from 'react-i18next';
import { INTL_LOCALES, languageOf } from '../../lib/format-date';

/**
 * Short labels for the calendar days (`YYYY-MM-DD`) the dashboards chart: the day is already
 * the user's, so it is formatted as a date in UTC, never moved to another zone.
 */
export function useDayLabel(): (day: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(INTL_LOCALES[languageOf(i18n.resolvedLanguage)], {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
  });
  return (day) => format.format(new Date(`${day}T00:00:00Z`));
}
