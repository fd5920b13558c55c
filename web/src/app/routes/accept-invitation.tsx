import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { acceptInvitationBodySchema } from '@contract/people';
import { GuestPage } from '../../components/layout/guest-page';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import {
  tokenFromHash,
  useAcceptInvitation,
  useInvitationPreview,
} from '../../features/people/api';
import { LinkProblem } from '../../features/people/link-problem';
import { NewPasswordFields, withConfirmation } from '../../features/people/new-password-fields';
import { homePath } from '../areas';

const formSchema = withConfirmation(acceptInvitationBodySchema.omit({ token: true }));
type AcceptForm = z.infer<typeof formSchema>;

/** The page an invitation mail links to: who is invited where; a name and password; signed in. */
export function AcceptInvitationRoute() {
  const { t } = useTranslation();
  const token = tokenFromHash(useLocation().hash);
  const preview = useInvitationPreview(token);
  return (
    <GuestPage title={t('invitation.title')}>
      {!token || preview.error ? (
        <LinkProblem error={preview.error} kind="invitation" />
      ) : preview.data ? (
        <AcceptForm token={token} invitation={preview.data} />
      ) : (
        <Text c="dimmed">{t('app.loading')}</Text>
      )}
    </GuestPage>
  );
}

function AcceptForm({
  token,
  invitation,
}: {
  token: string;
  invitation: { accountName: string; email: string; name: string; role: 'owner' | 'member' };
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
  const form = useForm<AcceptForm>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: invitation.name, password: '', confirm: '' },
  });
  const submit = form.handleSubmit(({ name, password }) =>
    accept.mutate(
      { token, name, password },
      {
        onSuccess: (session) =>
          void navigate(session.user ? homePath(session.user.role) : '/', { replace: true }),
      },
    ),
  );
  const { errors } = form.formState;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Alert color="blue" variant="light">
          {t('invitation.intro', {
            account: invitation.accountName,
            role: t(`people.roles.${invitation.role}`),
          })}
        </Alert>
        <ApiErrorAlert error={accept.error} />
        <TextInput label={t('people.email')} value={invitation.email} readOnly />
        <TextInput
          label={t('invitation.name')}
          autoComplete="name"
          required
          data-autofocus
          error={errors.name ? t('people.nameInvalid') : undefined}
          {...form.register('name')}
        />
        <NewPasswordFields
          label={t('invitation.password')}
          password={form.register('password')}
          confirm={form.register('confirm')}
          errors={errors}
        />
        <Button type="submit" loading={accept.isPending} fullWidth>
          {t('invitation.submit')}
        </Button>
      </Stack>
    </form>
  );
}
