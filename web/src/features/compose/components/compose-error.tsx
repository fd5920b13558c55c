import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MAX_UPLOADED_NUMBERS } from '@contract/compose';
import { ApiError } from '../../../lib/api-client';

/** A failed call in the page's words where it has some, else the server's own sentence. */
export function ComposeError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  let text: string;
  if (error instanceof ApiError) {
    const known = t(`compose.errors.${error.code}` as 'compose.errors.TOO_MANY_NUMBERS', {
      defaultValue: '',
      max: MAX_UPLOADED_NUMBERS,
    });
    text = known || `${error.message} (${error.code})`;
  } else text = error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" role="alert">
      {text}
    </Alert>
  );
}
