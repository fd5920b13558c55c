import {
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { adminSenderListQuerySchema, SENDER_STATUSES, type SenderStatus } from '@contract/senders';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllSenders } from '../../../features/sender-names/api/admin-senders';
import { ManagedSenderTable } from '../../../features/sender-names/components/managed-sender-table';
import { QueryFailure } from '../../../components/ui/query-failure';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSearchTerm } from '../../../lib/use-search-term';

const PAGE_SIZE = 25;

/** Every sender of the platform, however it was made: suspend, reinstate, share. */
export function AdminSendersRoute() {
  const { t } = useTranslation();
  usePageTitle(t('areas.adminSenders.title'));
  const [search, setSearch] = useState('');
  const found = useSearchTerm(adminSenderListQuerySchema.shape.search, search, {
    delay: 250,
    invalid: t('senders.all.searchInvalid'),
  });
  const [status, setStatus] = useState<SenderStatus | ''>('');
  const [page, setPage] = useState(1);
  const senders = useAllSenders(
    {
      search: found.term ?? '',
      status,
      offset: (page - 1) * PAGE_SIZE,
      limit: PAGE_SIZE,
    },
    found.term !== null,
  );
  const pages = senders.data ? Math.max(1, Math.ceil(senders.data.total / PAGE_SIZE)) : 1;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.adminSenders.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.adminSenders.summary')}
        </Text>
      </div>
      <Group align="end">
        <TextInput
          label={t('senders.all.search')}
          value={search}
          error={found.error}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 260 }}
        />
        <NativeSelect
          label={t('senders.fields.status')}
          value={status}
          onChange={(event) => {
            setStatus(event.currentTarget.value as SenderStatus | '');
            setPage(1);
          }}
          data={[
            { value: '', label: t('senders.all.anyStatus') },
            ...SENDER_STATUSES.map((value) => ({
              value,
              label: t(`senders.senderStatus.${value}`),
            })),
          ]}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      {senders.isPending ? <Loader size="sm" /> : null}
      {senders.isError ? <QueryFailure error={senders.error} /> : null}
      {senders.data ? (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('senders.all.found', { n: senders.data.total })}
          </Text>
          <ManagedSenderTable senders={senders.data.data} />
          {pages > 1 ? (
            <Pagination total={pages} value={page} onChange={setPage} size="sm" />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
