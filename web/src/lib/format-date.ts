import { DEFAULT_TIME_ZONE, isTimeZone, zoneOrDefault } from '@contract/time-zones';

export { DEFAULT_TIME_ZONE, isTimeZone };

/** The console's languages. */
export type Language = 'th' | 'en';

/**
 * The Intl locale each language formats dates and numbers with. Thai follows Thai usage
 * (Buddhist era, Thai month names, Western digits grouped by thousands); English is en-GB, whose
 * day-month-year order reads the same everywhere.
 */
export const INTL_LOCALES: Record<Language, string> = { th: 'th-TH', en: 'en-GB' };

export function isLanguage(value: unknown): value is Language {
  return value === 'th' || value === 'en';
}

/** The console language of an i18next language tag (`th`, `en`, `en-US`, or none yet). */
export function languageOf(tag: string | undefined): Language {
  return tag?.toLowerCase().startsWith('th') ? 'th' : 'en';
}

export interface DateFormatOptions {
  readonly language: Language;
  /** An IANA zone such as `Asia/Bangkok`; an unknown zone falls back to the default. */
  readonly timeZone?: string | null | undefined;
  /** `datetime` (default): date and time to the minute; `date`: the date alone. */
  readonly style?: 'datetime' | 'date';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter({ language, timeZone, style = 'datetime' }: DateFormatOptions) {
  const zone = zoneOrDefault(timeZone);
  const key = `${language}|${zone}|${style}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(INTL_LOCALES[language], {
      timeZone: zone,
      dateStyle: 'medium',
      ...(style === 'datetime' ? { timeStyle: 'short', hourCycle: 'h23' } : {}),
    });
    formatters.set(key, found);
  }
  return found;
}

/** Formats an instant (a Date, epoch milliseconds or an ISO 8601 string) in the user's zone. */
export function formatDate(value: Date | number | string, options: DateFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return formatter(options).format(date);
}
