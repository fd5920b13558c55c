import { DonutChart } from '@mantine/charts';
import { Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RECIPIENT_STATUSES, type StatusCounts } from '@contract/messages';
import { useFormatNumber } from '../../lib/use-format-number';
import { RECIPIENT_STATUS_COLOURS } from './status-badge';

/**
 * Recipients per delivery status: a donut (drawn by @mantine/charts) beside a legend that
 * names each status with its count, and a bar of how many have reached a final status.
 */
export function DeliveryChart({ counts, total }: { counts: StatusCounts; total: number }) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  const percentOf = useFormatNumber('percent');
  const data = RECIPIENT_STATUSES.filter((s) => counts[s] > 0).map((s) => ({
    name: t(`messages.recipientStatus.${s}`),
    value: counts[s],
    color: RECIPIENT_STATUS_COLOURS[s],
  }));
  const done = total - counts.pending;
  // Rounded down, so that 100% means every recipient.
  const share = total === 0 ? 1 : Math.floor((done / total) * 1000) / 1000;
  return (
    <Stack gap="md">
      <div>
        <Group justify="space-between" mb={4}>
          <Text size="sm">{t('messages.progress', { done, count: total })}</Text>
          <Text size="sm" fw={600}>
            {percentOf(share)}
          </Text>
        </Group>
        {/* A picture of the line above, which says it in words: hidden from screen readers. */}
        <Progress.Root size="lg" aria-hidden>
          {RECIPIENT_STATUSES.filter((s) => s !== 'pending' && counts[s] > 0).map((s) => (
            <Progress.Section
              key={s}
              value={total === 0 ? 0 : (counts[s] / total) * 100}
              color={RECIPIENT_STATUS_COLOURS[s]}
            />
          ))}
        </Progress.Root>
      </div>
      <Group align="center" gap="xl" wrap="wrap">
        <DonutChart
          data={data.length > 0 ? data : [{ name: '—', value: 1, color: 'gray.2' }]}
          size={180}
          thickness={26}
          withTooltip={data.length > 0}
          chartLabel={number(total)}
          // A picture: the table beside it gives the same counts.
          role="img"
          aria-label={t('messages.chartLabel')}
        />
        <Table w="auto" verticalSpacing={4} aria-label={t('messages.summaryLabel')}>
          <Table.Tbody>
            {RECIPIENT_STATUSES.map((s) => (
              <Table.Tr key={s} data-status={s}>
                <Table.Td>
                  <Group gap={8} wrap="nowrap">
                    <span
                      aria-hidden
                      style={{
                        width: 12,
                        height: 12,
                        borderRadius: 3,
                        background: `var(--mantine-color-${RECIPIENT_STATUS_COLOURS[s].replace('.', '-')})`,
                      }}
                    />
                    <Text size="sm">{t(`messages.recipientStatus.${s}`)}</Text>
                  </Group>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={500}>
                    {number(counts[s])}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Group>
    </Stack>
  );
}
