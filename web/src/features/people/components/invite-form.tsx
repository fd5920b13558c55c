import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { inviteBodySchema, type InviteBody, type InvitedRole } from '@contract/people';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useInvite, type PeopleScope } from '../api';

/** Email, role and (optionally) the name to offer; the invitation goes out by mail. */
export function InviteForm({
  scope,
  defaultRole,
  idPrefix,
}: {
  scope: PeopleScope;
  defaultRole: InvitedRole;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const invite = useInvite(scope);
  const form = useForm<InviteBody>({
    resolver: zodResolver(inviteBodySchema),
    defaultValues: { email: '', role: defaultRole, name: '' },
  });
  const submit = form.handleSubmit((body) =>
    invite.mutate(
      { ...body, name: body.name || undefined },
      {
        onSuccess: (invitation) => {
          form.reset({ email: '', role: defaultRole, name: '' });
          notifications.show({
            color: 'teal',
            message: t('people.invited', { email: invitation.email }),
          });
        },
      },
    ),
  );
  const { errors } = form.formState;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby={`${idPrefix}-title`}>
      <Stack gap="sm">
        <ApiErrorAlert error={invite.error} />
        <TextInput
          label={t('people.email')}
          type="email"
          autoComplete="off"
          required
          error={errors.email ? t('people.emailInvalid') : undefined}
          {...form.register('email')}
        />
        <TextInput
          label={t('people.nameOptional')}
          description={t('people.nameHint')}
          error={errors.name ? t('people.nameInvalid') : undefined}
          {...form.register('name')}
        />
        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id={`${idPrefix}-role`}>
                {t('people.role')}
              </Text>
              <SegmentedControl
                aria-labelledby={`${idPrefix}-role`}
                value={field.value}
                onChange={field.onChange}
                data={[
                  { value: 'member', label: t('people.roles.member') },
                  { value: 'owner', label: t('people.roles.owner') },
                ]}
              />
              <Text size="xs" c="dimmed">
                {t(field.value === 'owner' ? 'people.ownerHint' : 'people.memberHint')}
              </Text>
            </Stack>
          )}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={invite.isPending}>
            {t('people.sendInvitation')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
