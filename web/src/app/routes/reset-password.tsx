import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { z } from 'zod';
import { newPasswordSchema } from '@contract/people';
import { GuestPage } from '../../components/layout/guest-page';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import {
  tokenFromHash,
  useCompletePasswordReset,
  useResetPreview,
} from '../../features/people/api';
import { LinkProblem } from '../../features/people/link-problem';
import { NewPasswordFields, withConfirmation } from '../../features/people/new-password-fields';

const formSchema = withConfirmation(z.object({ password: newPasswordSchema }));
type ResetForm = z.infer<typeof formSchema>;

/** The page a reset mail links to: a new password, which ends every session of the person. */
export function ResetPasswordRoute() {
  const { t } = useTranslation();
  const token = tokenFromHash(useLocation().hash);
  const preview = useResetPreview(token);
  const complete = useCompletePasswordReset();
  const form = useForm<ResetForm>({
    resolver: zodResolver(formSchema),
    defaultValues: { password: '', confirm: '' },
  });
  const submit = form.handleSubmit(({ password }) => complete.mutate({ token, password }));
  const { errors } = form.formState;

  let body;
  if (complete.isSuccess) {
    body = (
      <Stack gap="md">
        <Alert color="teal" role="status">
          {t('reset.done')}
        </Alert>
        <Anchor component={Link} to="/sign-in">
          {t('links.toSignIn')}
        </Anchor>
      </Stack>
    );
  } else if (!token || preview.error) {
    body = <LinkProblem error={preview.error} kind="reset" />;
  } else if (!preview.data) {
    body = <Text c="dimmed">{t('app.loading')}</Text>;
  } else {
    body = (
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Text>{t('reset.intro', { email: preview.data.email })}</Text>
          <ApiErrorAlert error={complete.error} />
          <NewPasswordFields
            label={t('reset.password')}
            password={form.register('password')}
            confirm={form.register('confirm')}
            errors={errors}
            autoFocus
          />
          <Button type="submit" loading={complete.isPending} fullWidth>
            {t('reset.submit')}
          </Button>
        </Stack>
      </form>
    );
  }
  return <GuestPage title={t('reset.title')}>{body}</GuestPage>;
}
