import { useTranslation } from 'react-i18next';
import { formatDate, type DateFormatOptions } from './format-date';
import { languageOf } from './format-date';
import { useSession } from './session';

/** Formats instants in the signed-in user's time zone (default Asia/Bangkok) and language. */
export function useFormatDate(): (
  value: Date | number | string,
  style?: DateFormatOptions['style'],
) => string {
  const { i18n } = useTranslation();
  const timeZone = useSession().data?.user?.timeZone;
  const language = languageOf(i18n.resolvedLanguage);
  return (value, style) => formatDate(value, { language, timeZone, style });
}
