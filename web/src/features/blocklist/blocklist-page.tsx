import {
  Button,
  Card,
  Pagination,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { NumberImport } from '../../components/ui/number-import';
import { useFormatDate } from '../../lib/use-format-date';
import { usePageTitle } from '../../lib/use-page-title';
import { AddNumbersCard } from '../../components/ui/add-numbers-card';
import {
  importIntoBlocklist,
  useBlocklist,
  useChangeBlocklist,
  useInvalidateBlocklist,
  type BlocklistPath,
  type ChangeablePath,
} from './api';

const PAGE_SIZE = 50;

/** A customer's blocklist: their own entries to change, the platform's to read. */
export function BlocklistPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.blocklist.title'));
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.blocklist.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.blocklist.summary')}
        </Text>
      </div>
      <Tabs defaultValue="own" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="own">{t('blocklist.own')}</Tabs.Tab>
          <Tabs.Tab value="platform">{t('blocklist.platform')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="own" pt="md">
          <EditableBlocklist path="/blocklist" />
        </Tabs.Panel>
        <Tabs.Panel value="platform" pt="md">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('blocklist.platformReadOnly')}
            </Text>
            <Entries path="/blocklist/platform" editable={false} />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** The platform-wide blocklist, changed by admins. */
export function AdminBlocklistPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.adminBlocklist.title'));
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.adminBlocklist.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.adminBlocklist.summary')}
        </Text>
      </div>
      <EditableBlocklist path="/admin/blocklist" />
    </Stack>
  );
}

function EditableBlocklist({ path }: { path: ChangeablePath }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateBlocklist();
  return (
    <Stack gap="lg">
      <AddNumbers path={path} />
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('blocklist.import')}
        </Title>
        <NumberImport
          upload={(file, onProgress) => importIntoBlocklist(path, file, onProgress)}
          onDone={() => void invalidate()}
        />
      </Card>
      <Entries path={path} editable />
    </Stack>
  );
}

function AddNumbers({ path }: { path: ChangeablePath }) {
  const { t } = useTranslation();
  return (
    <AddNumbersCard
      add={useChangeBlocklist(path, 'add')}
      title={t('blocklist.add')}
      label={t('blocklist.numbers')}
      hint={t('blocklist.numbersHint')}
      button={(count) => t('blocklist.addButton', { count })}
    />
  );
}

function Entries({ path, editable }: { path: BlocklistPath; editable: boolean }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const digits = search.replace(/\D/g, '');
  const entries = useBlocklist(path, digits, (page - 1) * PAGE_SIZE, PAGE_SIZE);
  const remove = useChangeBlocklist(path, 'remove');
  const pages = entries.data ? Math.max(1, Math.ceil(entries.data.total / PAGE_SIZE)) : 1;
  return (
    <Stack gap="sm">
      <TextInput
        label={t('blocklist.search')}
        placeholder="0812…"
        inputMode="numeric"
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        maw={320}
      />
      <ApiErrorAlert error={entries.error ?? remove.error} />
      {entries.data ? (
        <>
          <Text size="sm" c="dimmed" data-testid={`blocklist-total-${path}`}>
            {t('blocklist.found', { count: entries.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={300}>
            <Table striped aria-label={t('blocklist.entries')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('blocklist.number')}</Table.Th>
                  <Table.Th>{t('blocklist.added')}</Table.Th>
                  {editable ? (
                    <Table.Th>
                      <VisuallyHidden>{t('blocklist.actions')}</VisuallyHidden>
                    </Table.Th>
                  ) : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.data.data.map((entry) => (
                  <Table.Tr key={entry.msisdn}>
                    <Table.Td ff="monospace">{entry.msisdn}</Table.Td>
                    <Table.Td>{formatDate(entry.createdAt, 'date')}</Table.Td>
                    {editable ? (
                      <Table.Td ta="right">
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          aria-label={t('blocklist.removeNumber', { number: entry.msisdn })}
                          onClick={() => remove.mutate([entry.msisdn])}
                        >
                          {t('blocklist.remove')}
                        </Button>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 ? (
            <Pagination total={pages} value={page} onChange={setPage} size="sm" />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
