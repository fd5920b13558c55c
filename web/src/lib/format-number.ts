import { INTL_LOCALES, type Language } from './format-date';

/**
 * The ways the console writes a number: a count or amount (`97,000`), a change with its sign
 * (`+500`, `-97,000`), a share (`12.5%`), a rate to one decimal and seconds to two.
 */
export type NumberStyle = 'plain' | 'signed' | 'percent' | 'rate' | 'seconds';

const STYLES: Record<NumberStyle, Intl.NumberFormatOptions> = {
  plain: {},
  signed: { signDisplay: 'exceptZero' },
  percent: { style: 'percent', maximumFractionDigits: 1 },
  rate: { maximumFractionDigits: 1 },
  seconds: { maximumFractionDigits: 2 },
};

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Every number the console shows, written for the user's language: translations get it from
 * i18next (`i18n.ts` formats each number they interpolate), pages from `useFormatNumber`.
 * Identifiers that happen to be digits (ids, phone numbers, reference numbers) are not numbers
 * to format and are shown as they are.
 */
export function formatNumber(
  value: number,
  language: Language,
  style: NumberStyle = 'plain',
): string {
  const key = `${language}|${style}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(INTL_LOCALES[language], STYLES[style]);
    formatters.set(key, formatter);
  }
  return formatter.format(value);
}
