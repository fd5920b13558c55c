import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LiveDispatcher } from '@contract/carriers';
import { useFormatDate } from '../../../lib/use-format-date';
import { useFormatNumber } from '../../../lib/use-format-number';
import { secondsBetween } from '../seconds-between';

/** Each dispatcher process that reported lately: when it started and last reported, its work. */
export function DispatcherTable({
  dispatchers,
  checkedAt,
}: {
  dispatchers: readonly LiveDispatcher[];
  checkedAt: string;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const number = useFormatNumber();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped aria-label={t('carriers.dispatcherList')} data-testid="dispatchers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('carriers.process')}</Table.Th>
            <Table.Th>{t('carriers.startedAt')}</Table.Th>
            <Table.Th>{t('carriers.reportedAt')}</Table.Th>
            <Table.Th ta="right">{t('carriers.partsInFlight')}</Table.Th>
            <Table.Th ta="right">{t('carriers.submitted')}</Table.Th>
            <Table.Th ta="right">{t('carriers.receipts')}</Table.Th>
            <Table.Th>{t('carriers.bindsByCarrier')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dispatchers.map((dispatcher) => (
            <Table.Tr key={dispatcher.owner}>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {dispatcher.owner}
                </Text>
              </Table.Td>
              <Table.Td>{formatDate(dispatcher.startedAt)}</Table.Td>
              <Table.Td>
                {t('carriers.secondsAgo', {
                  seconds: secondsBetween(dispatcher.reportedAt, checkedAt),
                })}
              </Table.Td>
              <Table.Td ta="right">{number(dispatcher.stats.partsInFlight)}</Table.Td>
              <Table.Td ta="right">{number(dispatcher.stats.submitted)}</Table.Td>
              <Table.Td ta="right">{number(dispatcher.stats.receipts)}</Table.Td>
              <Table.Td>
                {dispatcher.carriers
                  .map(
                    (carrier) =>
                      `${carrier.name} ${number(carrier.bindsUp)}/${number(carrier.bindsWanted)}`,
                  )
                  .join(', ')}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
