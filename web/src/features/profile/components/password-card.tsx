import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH, passwordChangeSchema, type PasswordChange } from '@contract/profile';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useChangePassword } from '../api';

/** Change the password: the current one, then a new one; other sessions end. */
export function PasswordCard() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [done, setDone] = useState(false);
  const form = useForm<PasswordChange>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const submit = form.handleSubmit((body) => {
    setDone(false);
    change.mutate(body, {
      onSuccess: () => {
        form.reset();
        setDone(true);
      },
    });
  });
  const { errors } = form.formState;

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="password-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id="password-title">
            {t('profile.password.title')}
          </Title>
          <PasswordInput
            label={t('profile.password.current')}
            autoComplete="current-password"
            required
            error={errors.currentPassword ? t('profile.password.required') : undefined}
            {...form.register('currentPassword')}
          />
          <PasswordInput
            label={t('profile.password.new')}
            description={t('profile.password.newHint', { count: MIN_PASSWORD_LENGTH })}
            autoComplete="new-password"
            required
            error={
              errors.newPassword
                ? t('profile.password.tooShort', { count: MIN_PASSWORD_LENGTH })
                : undefined
            }
            {...form.register('newPassword')}
          />
          <ApiErrorAlert error={change.error} />
          {done ? (
            <Text c="teal.9" role="status">
              {t('profile.password.changed')}
            </Text>
          ) : null}
          <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('profile.password.submit')}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
