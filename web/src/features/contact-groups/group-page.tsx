import {
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { NumberImport } from '../../components/ui/number-import';
import { NumberList, useNumberListPage } from '../../components/ui/number-list';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { QueryFailure } from '../../components/ui/query-failure';
import { usePageTitle } from '../../lib/use-page-title';
import { AddNumbersCard } from '../../components/ui/add-numbers-card';
import {
  importIntoGroup,
  useChangeMembers,
  useContactGroup,
  useDeleteGroup,
  useInvalidateGroups,
  useMembers,
  useRenameGroup,
} from './api';

/** One contact group: rename, delete, import a file, add numbers, browse, search and remove. */
export function ContactGroupPage({ groupId }: { groupId: number }) {
  const { t } = useTranslation();
  const group = useContactGroup(groupId);
  const invalidate = useInvalidateGroups();
  usePageTitle(group.data?.name ?? t('areas.contactGroups.title'));
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/contact-groups" size="sm">
        ← {t('areas.contactGroups.title')}
      </Anchor>
      {group.isPending ? <Loader size="sm" /> : null}
      {group.isError ? <QueryFailure error={group.error} /> : null}
      {group.data ? (
        <>
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <div>
              <Title order={1}>{group.data.name}</Title>
              <Text c="dimmed" mt="xs" data-testid="group-size">
                {t('contactGroups.members', { count: group.data.size })}
              </Text>
            </div>
            <GroupActions groupId={groupId} name={group.data.name} />
          </Group>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('contactGroups.import')}
            </Title>
            <NumberImport
              upload={(file, onProgress) => importIntoGroup(groupId, file, onProgress)}
              onDone={() => void invalidate()}
            />
          </Card>
          <AddNumbers groupId={groupId} />
          <Members groupId={groupId} />
        </>
      ) : null}
    </Stack>
  );
}

function GroupActions({ groupId, name }: { groupId: number; name: string }) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [newName, setNewName] = useState(name);
  const rename = useRenameGroup(groupId);
  const remove = useDeleteGroup(groupId);
  const navigate = useNavigate();
  return (
    <Group gap="xs">
      <Button variant="default" onClick={() => setRenaming(true)}>
        {t('contactGroups.rename')}
      </Button>
      <Button color="red" variant="light" onClick={() => setDeleting(true)}>
        {t('contactGroups.delete')}
      </Button>
      <Modal opened={renaming} onClose={() => setRenaming(false)} title={t('contactGroups.rename')}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate(newName, { onSuccess: () => setRenaming(false) });
          }}
        >
          <Stack>
            <ApiErrorAlert error={rename.error} />
            <TextInput
              label={t('contactGroups.name')}
              value={newName}
              onChange={(event) => setNewName(event.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button type="submit" loading={rename.isPending}>
                {t('contactGroups.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal opened={deleting} onClose={() => setDeleting(false)} title={t('contactGroups.delete')}>
        <Stack>
          <ApiErrorAlert error={remove.error} />
          <Text>{t('contactGroups.deleteConfirm', { name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(false)}>
              {t('contactGroups.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, { onSuccess: () => void navigate('/contact-groups') })
              }
            >
              {t('contactGroups.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

function AddNumbers({ groupId }: { groupId: number }) {
  const { t } = useTranslation();
  return (
    <AddNumbersCard
      add={useChangeMembers(groupId, 'add')}
      title={t('contactGroups.add')}
      label={t('contactGroups.addNumbers')}
      hint={t('contactGroups.addHint')}
      button={(count) => t('contactGroups.addButton', { count })}
    />
  );
}

function Members({ groupId }: { groupId: number }) {
  const { t } = useTranslation();
  const page = useNumberListPage();
  const members = useMembers(groupId, page.digits, page.offset, page.limit);
  const remove = useChangeMembers(groupId, 'remove');
  return (
    <NumberList
      page={page}
      numbers={members}
      remove={remove}
      totalTestId="members-total"
      labels={{
        title: t('contactGroups.browse'),
        search: t('contactGroups.search'),
        found: (count) => t('contactGroups.found', { count }),
        table: t('contactGroups.browse'),
        number: t('contactGroups.number'),
        actions: t('contactGroups.actions'),
        remove: t('contactGroups.remove'),
        removeNumber: (number) => t('contactGroups.removeNumber', { number }),
      }}
    />
  );
}
