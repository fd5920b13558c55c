import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A query that failed: the server's message, in an alert a screen reader announces. */
export function QueryFailure({ error }: { error: Error }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={t('errors.loadFailed')}>
      {error.message}
    </Alert>
  );
}
