import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { languageOf, type Language } from '../../lib/format-date';
import { changeLanguage, LANGUAGES } from '../../lib/i18n';

/** Thai or English, for the whole console; the choice is remembered on this browser. */
export function LanguageSwitch({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.resolvedLanguage);
  return (
    <SegmentedControl
      size={size}
      aria-label={t('language.label')}
      value={language}
      onChange={(value) => void changeLanguage(value as Language)}
      data={LANGUAGES.map((value) => ({
        value,
        // Each language named in itself, so a reader of either can find theirs.
        label: <span lang={value}>{t(`language.${value}`, { lng: value })}</span>,
      }))}
    />
  );
}
