import { Table, Text } from '@mantine/core';
import type { Sender } from '@contract/senders';
import { useTranslation } from 'react-i18next';
import { useFormatDate } from '../../../lib/use-format-date';
import { SenderStatusBadge } from './status-badge';

/** The account's senders: its own and those shared with it, each with its status. */
export function SenderTable({ senders }: { senders: readonly Sender[] }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (senders.length === 0) return <Text c="dimmed">{t('senders.list.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped highlightOnHover aria-label={t('senders.list.title')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('senders.fields.name')}</Table.Th>
            <Table.Th>{t('senders.fields.status')}</Table.Th>
            <Table.Th>{t('senders.list.owner')}</Table.Th>
            <Table.Th>{t('senders.fields.created')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {senders.map((sender) => (
            <Table.Tr key={sender.id}>
              <Table.Td>
                <Text ff="monospace" fw={600}>
                  {sender.name}
                </Text>
              </Table.Td>
              <Table.Td>
                <SenderStatusBadge status={sender.status} />
              </Table.Td>
              <Table.Td>
                {sender.shared ? t('senders.list.shared') : t('senders.list.own')}
              </Table.Td>
              <Table.Td>{formatDate(sender.createdAt, 'date')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
