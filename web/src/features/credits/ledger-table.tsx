import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { LedgerEntry, LedgerReason } from '@contract/credits';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useFormatDate } from '../../lib/use-format-date';
import { useLedger } from './api';
import { useFormatNumber } from '../../lib/use-format-number';

const REASON_COLOURS: Record<LedgerReason, string> = {
  'top-up': 'teal',
  send: 'blue',
  hold: 'yellow',
  refund: 'grape',
  adjustment: 'orange',
};

/**
 * The ledger of one account with a "show more" that follows the cursor. A movement about a
 * message links to that message's page: the customer's own, or (`messagesPath`) the admin's.
 */
export function LedgerTable({
  ledger,
  messagesPath = '/messages',
}: {
  ledger: ReturnType<typeof useLedger>;
  messagesPath?: string;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const number = useFormatNumber('signed');
  const plain = useFormatNumber();
  const entries: LedgerEntry[] = ledger.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Stack gap="sm">
      <ApiErrorAlert error={ledger.error} />
      {ledger.isPending ? <Text c="dimmed">{t('app.loading')}</Text> : null}
      {ledger.isSuccess && entries.length === 0 ? <Text>{t('credits.empty')}</Text> : null}
      {entries.length > 0 ? (
        <Table.ScrollContainer minWidth={680}>
          <Table striped verticalSpacing="xs" aria-label={t('credits.ledgerLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('credits.when')}</Table.Th>
                <Table.Th>{t('credits.reason')}</Table.Th>
                <Table.Th ta="right">{t('credits.change')}</Table.Th>
                <Table.Th ta="right">{t('credits.balanceAfter')}</Table.Th>
                <Table.Th>{t('credits.message')}</Table.Th>
                <Table.Th>{t('credits.note')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatDate(entry.createdAt)}</Table.Td>
                  <Table.Td>
                    <Badge color={REASON_COLOURS[entry.reason]} variant="light">
                      {t(`credits.reasons.${entry.reason}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right" c={entry.delta < 0 ? 'red.9' : 'teal.9'} fw={500}>
                    {number(entry.delta)}
                  </Table.Td>
                  <Table.Td ta="right">{plain(entry.balanceAfter)}</Table.Td>
                  <Table.Td>
                    {entry.messageUuid ? (
                      <MessageRef uuid={entry.messageUuid} messagesPath={messagesPath} />
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>{entry.note ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {ledger.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="default"
            loading={ledger.isFetchingNextPage}
            onClick={() => void ledger.fetchNextPage()}
          >
            {t('credits.more')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** The message a row is about: its uuid, shortened, copied whole on click. */
function MessageRef({ uuid, messagesPath }: { uuid: string; messagesPath: string }) {
  const { t } = useTranslation();
  return (
    <Anchor
      component={Link}
      to={`${messagesPath}/${uuid}`}
      ff="monospace"
      size="sm"
      aria-label={t('credits.openMessage', { uuid })}
    >
      {uuid.slice(0, 8)}
    </Anchor>
  );
}
