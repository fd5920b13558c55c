import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <Center mih="50vh" role="status" aria-live="polite">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}
