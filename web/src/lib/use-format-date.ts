import { useTranslation } from 'react-i18next';
import { formatDate, type DateFormatOptions, type Language } from './format-date';
import { useSession } from './session';

/** Formats instants in the signed-in user's time zone (default Asia/Bangkok) and language. */
export function useFormatDate(): (
  value: Date | number | string,
  style?: DateFormatOptions['style'],
) => string {
  const { i18n } = useTranslation();
  const timeZone = useSession().data?.user?.timeZone;
  const language: Language = i18n.resolvedLanguage === 'th' ? 'th' : 'en';
  return (value, style) => formatDate(value, { language, timeZone, style });
}
