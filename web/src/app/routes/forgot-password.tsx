import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { resetRequestBodySchema, type ResetRequestBody } from '@contract/people';
import { GuestPage } from '../../components/layout/guest-page';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useRequestPasswordReset } from '../../features/people/api';

/** "Forgot password": the same answer whoever is asked for; a link is mailed if they exist. */
export function ForgotPasswordRoute() {
  const { t } = useTranslation();
  const request = useRequestPasswordReset();
  const form = useForm<ResetRequestBody>({
    resolver: zodResolver(resetRequestBodySchema),
    defaultValues: { email: '' },
  });
  const submit = form.handleSubmit(({ email }) => request.mutate(email));
  return (
    <GuestPage title={t('forgot.title')}>
      {request.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" role="status">
            {t('forgot.sent', { email: form.getValues('email') })}
          </Alert>
          <Anchor component={Link} to="/sign-in">
            {t('links.toSignIn')}
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <Text>{t('forgot.intro')}</Text>
            <ApiErrorAlert error={request.error} />
            <TextInput
              label={t('signIn.email')}
              type="email"
              autoComplete="username"
              required
              data-autofocus
              error={form.formState.errors.email ? t('signIn.emailInvalid') : undefined}
              {...form.register('email')}
            />
            <Button type="submit" loading={request.isPending} fullWidth>
              {t('forgot.submit')}
            </Button>
            <Anchor component={Link} to="/sign-in" size="sm">
              {t('links.toSignIn')}
            </Anchor>
          </Stack>
        </form>
      )}
    </GuestPage>
  );
}
