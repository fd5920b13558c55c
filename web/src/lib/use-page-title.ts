import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Names the browser tab (and what a screen reader announces on arrival) after the page. */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  const suffix = t('app.title');
  useEffect(() => {
    document.title = title ? `${title} · ${suffix}` : suffix;
  }, [title, suffix]);
}
