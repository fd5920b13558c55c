import { Anchor, Badge, Card, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LatestMessage } from '@contract/dashboard';
import { useFormatDate } from '../../lib/use-format-date';
import { useFormatNumber } from '../../lib/use-format-number';

const STATUS_COLOURS: Record<string, string> = {
  sent: 'teal',
  pending: 'blue',
  scheduled: 'grape',
  failed: 'red',
  cancelled: 'gray',
};

/** The account's latest messages, each linked to its page. */
export function LatestMessages({ messages }: { messages: LatestMessage[] }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const number = useFormatNumber();
  return (
    <Card withBorder component="section" aria-labelledby="latest-messages">
      <Title order={2} size="h4" mb="sm" id="latest-messages">
        {t('dashboard.latest')}
      </Title>
      {messages.length === 0 ? (
        <Text>{t('dashboard.noMessages')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" aria-labelledby="latest-messages">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dashboard.when')}</Table.Th>
                <Table.Th>{t('dashboard.refNo')}</Table.Th>
                <Table.Th>{t('dashboard.sender')}</Table.Th>
                <Table.Th>{t('dashboard.content')}</Table.Th>
                <Table.Th ta="right">{t('dashboard.recipients')}</Table.Th>
                <Table.Th>{t('dashboard.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {messages.map((message) => (
                <Table.Tr key={message.uuid}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatDate(message.createdAt)}
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/messages/${message.uuid}`} ff="monospace">
                      {message.refNo}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{message.sender}</Table.Td>
                  <Table.Td maw={260}>
                    <Text size="sm" truncate="end">
                      {message.content}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{number(message.recipientTotal)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOURS[message.status] ?? 'gray'}>
                      {t(`dashboard.messageStatuses.${message.status}`, {
                        defaultValue: message.status,
                      })}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
