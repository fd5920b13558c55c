import { useTranslation } from 'react-i18next';
import { formatNumber, type NumberStyle } from './format-number';
import { languageOf } from './format-date';

/** `formatNumber` in the console's current language, for numbers a page shows outside `t()`. */
export function useFormatNumber(style: NumberStyle = 'plain'): (value: number) => string {
  const { i18n } = useTranslation();
  const language = languageOf(i18n.resolvedLanguage);
  return (value) => formatNumber(value, language, style);
}
