import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { contactGroupBodySchema, type ContactGroupBody } from '@contract/contact-groups';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useFormatNumber } from '../../lib/use-format-number';
import { usePageTitle } from '../../lib/use-page-title';
import { useContactGroups, useCreateGroup } from './api';

/** The account's contact groups: create one, open one to import, browse and change it. */
export function ContactGroupsPage() {
  const { t } = useTranslation();
  const number = useFormatNumber();
  usePageTitle(t('areas.contactGroups.title'));
  const groups = useContactGroups();
  const create = useCreateGroup();
  const navigate = useNavigate();
  const form = useForm<ContactGroupBody>({
    resolver: zodResolver(contactGroupBodySchema),
    defaultValues: { name: '' },
  });
  const submit = form.handleSubmit(({ name }) =>
    create.mutate(name, {
      onSuccess: (group) => {
        form.reset();
        void navigate(`/contact-groups/${group.id}`);
      },
    }),
  );

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.contactGroups.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.contactGroups.summary')}
        </Text>
      </div>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('contactGroups.newName')}
            style={{ flex: '1 1 16rem' }}
            error={form.formState.errors.name ? t('contactGroups.nameInvalid') : undefined}
            {...form.register('name')}
          />
          <Button type="submit" loading={create.isPending}>
            {t('contactGroups.create')}
          </Button>
        </Group>
      </form>
      <ApiErrorAlert error={create.error ?? groups.error} />
      {groups.data ? (
        groups.data.data.length === 0 ? (
          <Text>{t('contactGroups.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table striped verticalSpacing="sm" aria-label={t('areas.contactGroups.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('contactGroups.name')}</Table.Th>
                  <Table.Th ta="right">{t('contactGroups.size')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {groups.data.data.map((group) => (
                  <Table.Tr key={group.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/contact-groups/${group.id}`}>
                        {group.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ta="right">{number(group.size)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )
      ) : groups.isPending ? (
        <Text c="dimmed">{t('app.loading')}</Text>
      ) : null}
    </Stack>
  );
}
