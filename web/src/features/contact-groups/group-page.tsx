import {
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { NumberImport } from '../../components/ui/number-import';
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

const PAGE_SIZE = 50;

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
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const digits = search.replace(/\D/g, '');
  const members = useMembers(groupId, digits, (page - 1) * PAGE_SIZE, PAGE_SIZE);
  const remove = useChangeMembers(groupId, 'remove');
  const pages = members.data ? Math.max(1, Math.ceil(members.data.total / PAGE_SIZE)) : 1;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('contactGroups.browse')}
      </Title>
      <TextInput
        label={t('contactGroups.search')}
        placeholder="0812…"
        inputMode="numeric"
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        maw={320}
      />
      <ApiErrorAlert error={members.error ?? remove.error} />
      {members.data ? (
        <>
          <Text size="sm" c="dimmed" data-testid="members-total">
            {t('contactGroups.found', { count: members.data.total })}
          </Text>
          <Table striped aria-label={t('contactGroups.browse')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('contactGroups.number')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('contactGroups.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.data.map(({ msisdn }) => (
                <Table.Tr key={msisdn}>
                  <Table.Td ff="monospace">{msisdn}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      aria-label={t('contactGroups.removeNumber', { number: msisdn })}
                      onClick={() => remove.mutate([msisdn])}
                    >
                      {t('contactGroups.remove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {pages > 1 ? (
            <Pagination total={pages} value={page} onChange={setPage} size="sm" />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
