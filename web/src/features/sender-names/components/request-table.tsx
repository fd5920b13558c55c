import { Anchor, Table, Text } from '@mantine/core';
import type { SenderRequestSummary } from '@contract/senders';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatDate } from '../../../lib/use-format-date';
import { RequestStatusBadge } from './status-badge';

/** Requests with their status; each name opens the request at `linkTo(request)`. */
export function RequestTable({
  requests,
  linkTo,
  showAccount = false,
  label,
}: {
  requests: readonly SenderRequestSummary[];
  linkTo: (request: SenderRequestSummary) => string;
  showAccount?: boolean;
  label: string;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (requests.length === 0) return <Text c="dimmed">{t('senders.requests.none')}</Text>;
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('senders.fields.name')}</Table.Th>
            {showAccount ? <Table.Th>{t('senders.fields.account')}</Table.Th> : null}
            <Table.Th>{t('senders.fields.purpose')}</Table.Th>
            <Table.Th>{t('senders.fields.status')}</Table.Th>
            <Table.Th>{t('senders.fields.updated')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {requests.map((request) => (
            <Table.Tr key={request.id}>
              <Table.Td>
                <Anchor component={Link} to={linkTo(request)} ff="monospace" fw={600}>
                  {request.name}
                </Anchor>
              </Table.Td>
              {showAccount ? <Table.Td>#{request.accountId}</Table.Td> : null}
              <Table.Td>{t(`senders.purpose.${request.purpose}`)}</Table.Td>
              <Table.Td>
                <RequestStatusBadge status={request.status} />
              </Table.Td>
              <Table.Td>{formatDate(request.updatedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
