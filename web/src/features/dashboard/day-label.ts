import { useTranslation } from 'react-i18next';

/**
 * Short labels for the calendar days (`YYYY-MM-DD`) the dashboards chart: the day is already
 * the user's, so it is formatted as a date in UTC, never moved to another zone.
 */
export function useDayLabel(): (day: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage === 'th' ? 'th-TH' : 'en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
  });
  return (day) => format.format(new Date(`${day}T00:00:00Z`));
}

export function useNumberFormat(options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const { i18n } = useTranslation();
  return new Intl.NumberFormat(i18n.resolvedLanguage === 'th' ? 'th-TH' : 'en-GB', options);
}
