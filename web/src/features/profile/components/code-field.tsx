import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** The six digits of an authenticator app, as every two-factor form asks for them. */
export function CodeField({
  registration,
  error,
  label,
}: {
  registration: UseFormRegisterReturn;
  error?: boolean;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={label ?? t('profile.totp.code')}
      description={t('profile.totp.codeHint')}
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={7}
      w={{ base: '100%', xs: 220 }}
      error={error ? t('profile.totp.codeInvalid') : undefined}
      {...registration}
    />
  );
}
