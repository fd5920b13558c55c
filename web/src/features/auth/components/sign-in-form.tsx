import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { signInBodySchema, type SignInBody } from '@contract/session';
import { useSignIn } from '../api/sign-in';

/** The code the server answers when the password was right and a TOTP code is still needed. */
const TOTP_REQUIRED = 'TOTP_REQUIRED';

/**
 * Email and password, then (when the server asks for it) the authenticator code. The form
 * checks its fields with the same zod schema the server validates the body with.
 */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const [needsCode, setNeedsCode] = useState(false);
  const [codeRejected, setCodeRejected] = useState(false);
  const form = useForm<SignInBody>({
    resolver: zodResolver(signInBodySchema),
    defaultValues: { email: '', password: '' },
  });

  const submit = form.handleSubmit((body) =>
    signIn.mutate(body, {
      onSuccess: onSignedIn,
      onError: (error) => {
        if (!(error instanceof ApiError && error.code === TOTP_REQUIRED)) return;
        // The first 401 asks for the code; another one means the code given was not taken.
        setCodeRejected(needsCode && body.totpCode !== undefined);
        setNeedsCode(true);
        setTimeout(() => form.setFocus('totpCode'));
      },
    }),
  );
  const failed =
    signIn.isError && !(signIn.error instanceof ApiError && signIn.error.code === TOTP_REQUIRED);
  const { errors } = form.formState;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {failed ? (
          <Alert color="red" role="alert">
            {t('signIn.failed')}
          </Alert>
        ) : null}
        {needsCode ? (
          <Alert color={codeRejected ? 'red' : 'blue'} role={codeRejected ? 'alert' : 'status'}>
            {codeRejected ? t('signIn.totpRejected') : t('signIn.totpStep')}
          </Alert>
        ) : null}
        <TextInput
          label={t('signIn.email')}
          type="email"
          autoComplete="username"
          required
          error={errors.email ? t('signIn.emailInvalid') : undefined}
          {...form.register('email')}
        />
        <PasswordInput
          label={t('signIn.password')}
          autoComplete="current-password"
          required
          error={errors.password ? t('signIn.passwordRequired') : undefined}
          {...form.register('password')}
        />
        {needsCode ? (
          <TextInput
            label={t('signIn.totpCode')}
            description={t('signIn.totpHint')}
            autoComplete="one-time-code"
            inputMode="numeric"
            data-autofocus
            {...form.register('totpCode', { setValueAs: (value: string) => value || undefined })}
          />
        ) : null}
        <Button type="submit" loading={signIn.isPending} fullWidth>
          {t('signIn.submit')}
        </Button>
      </Stack>
    </form>
  );
}
