import { Card, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NumberImport } from '../../components/ui/number-import';
import { usePageTitle } from '../../lib/use-page-title';
import { AddNumbersCard } from '../../components/ui/add-numbers-card';
import { NumberList, useNumberListPage } from '../../components/ui/number-list';
import {
  importIntoBlocklist,
  useBlocklist,
  useChangeBlocklist,
  useInvalidateBlocklist,
  type BlocklistPath,
  type ChangeablePath,
} from './api';

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
  const page = useNumberListPage();
  const entries = useBlocklist(path, page.digits, page.offset, page.limit);
  const remove = useChangeBlocklist(path, 'remove');
  return (
    <NumberList
      page={page}
      numbers={entries}
      remove={editable ? remove : undefined}
      totalTestId={`blocklist-total-${path}`}
      labels={{
        search: t('blocklist.search'),
        found: (count) => t('blocklist.found', { count }),
        table: t('blocklist.entries'),
        number: t('blocklist.number'),
        added: t('blocklist.added'),
        actions: t('blocklist.actions'),
        remove: t('blocklist.remove'),
        removeNumber: (number) => t('blocklist.removeNumber', { number }),
      }}
    />
  );
}
