import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';

/**
 * A failed call as the user reads it: a translated sentence for the codes a page expects,
 * else the server's own message (which says what to do), with the code for support.
 */
export function ApiErrorAlert({ error, title }: { error: unknown; title?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  let text: string;
  if (error instanceof ApiError) {
    const known = t(`apiErrors.${error.code}` as 'apiErrors.NETWORK', { defaultValue: '' });
    text = known || `${error.message} (${error.code})`;
  } else {
    text = error instanceof Error ? error.message : String(error);
  }
  return (
    <Alert color="red" role="alert" title={title}>
      {text}
    </Alert>
  );
}
