import { Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  RECIPIENT_SEARCH_MAX,
  RECIPIENT_STATUSES,
  recipientQuerySchema,
  type RecipientStatus,
} from '@contract/messages';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useSearchTerm } from '../../lib/use-search-term';
import { useFormatDate } from '../../lib/use-format-date';
import {
  exportHref,
  fetchRecipientPage,
  recipientsKey,
  useRecipients,
  type MessageScope,
} from './api';
import { RecipientStatusBadge } from './status-badge';
import { useFirstPageRefresh } from './use-first-page-refresh';

/**
 * The message's recipients, 50 at a time by cursor, by status and by a part of the number, and
 * the export of all of them (or those of the chosen status) as CSV: a link the browser
 * downloads itself, so a file of two million rows never passes through this page.
 */
export function RecipientsPanel({
  scope,
  uuid,
  version,
}: {
  scope: MessageScope;
  uuid: string;
  /** Changes when the message's counts do: the first page shown is read again. */
  version: string;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const [status, setStatus] = useState<RecipientStatus | ''>('');
  const [search, setSearch] = useState('');
  const digits = search.replace(/\D/g, '');
  // Longer than the server takes: said at the field, and the list stays unfiltered meanwhile.
  const numbers = useSearchTerm(recipientQuerySchema.shape.search, digits, {
    tooLong: t('messages.numberSearchTooLong', { count: RECIPIENT_SEARCH_MAX }),
  });
  const filters = { status, search: numbers.term ?? '' };
  const recipients = useRecipients(scope, uuid, filters);
  useFirstPageRefresh({
    version,
    allKey: recipientsKey(scope, uuid),
    key: recipientsKey(scope, uuid, filters),
    fetching: recipients.isFetching,
    fetchFirst: () => fetchRecipientPage(scope, uuid, filters, 0),
  });
  const rows = recipients.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3">
          {t('messages.recipientsTitle')}
        </Title>
        <Button
          component="a"
          href={exportHref(scope, uuid, status)}
          download
          variant="light"
          data-testid="export-recipients"
        >
          {t(status ? 'messages.exportStatus' : 'messages.exportAll', {
            status: status ? t(`messages.recipientStatus.${status}`) : '',
          })}
        </Button>
      </Group>
      <Group
        component="form"
        role="search"
        aria-label={t('messages.recipientFilters')}
        gap="sm"
        align="flex-end"
        onSubmit={(event) => event.preventDefault()}
      >
        <NativeSelect
          label={t('messages.filterStatus')}
          value={status}
          onChange={(event) => setStatus(event.currentTarget.value as RecipientStatus | '')}
          data={[
            { value: '', label: t('messages.allStatuses') },
            ...RECIPIENT_STATUSES.map((s) => ({
              value: s,
              label: t(`messages.recipientStatus.${s}`),
            })),
          ]}
          w={{ base: '100%', xs: 180 }}
        />
        <TextInput
          label={t('messages.numberSearch')}
          placeholder="0812345678"
          inputMode="numeric"
          value={search}
          error={numbers.error}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      <ApiErrorAlert error={recipients.error} />
      {recipients.isSuccess && rows.length === 0 ? (
        <Text c="dimmed">{t('messages.noRecipients')}</Text>
      ) : null}
      {rows.length > 0 ? (
        <Table.ScrollContainer minWidth={320}>
          <Table striped verticalSpacing={6} aria-label={t('messages.recipientsTitle')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th visibleFrom="sm">#</Table.Th>
                <Table.Th>{t('messages.number')}</Table.Th>
                <Table.Th>{t('messages.statusLabel')}</Table.Th>
                <Table.Th visibleFrom="sm">{t('messages.updated')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.seq}>
                  <Table.Td c="dimmed" visibleFrom="sm">
                    {r.seq}
                  </Table.Td>
                  <Table.Td ff="monospace">{r.msisdn}</Table.Td>
                  <Table.Td>
                    <RecipientStatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                    {r.updatedAt ? formatDate(r.updatedAt) : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {recipients.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="default"
            loading={recipients.isFetchingNextPage}
            onClick={() => void recipients.fetchNextPage()}
          >
            {t('messages.moreRecipients')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
