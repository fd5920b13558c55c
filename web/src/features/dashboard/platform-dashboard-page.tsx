import { BarChart, LineChart } from '@mantine/charts';
import { Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PlatformDashboard } from '@contract/dashboard';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { usePageTitle } from '../../lib/use-page-title';
import { usePlatformDashboard } from './api';
import { useDayLabel } from './day-label';
import { useFormatNumber } from '../../lib/use-format-number';

const CARRIER_COLOURS = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'pink.6', 'lime.7'];

/** The admin's view of the platform: the last 30 days, from the dispatchers' figures. */
export function PlatformDashboardPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.adminDashboard.title'));
  const dashboard = usePlatformDashboard();
  const data = dashboard.data;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.adminDashboard.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('platform.summary')}
        </Text>
      </div>
      <ApiErrorAlert error={dashboard.error} />
      {dashboard.isPending ? <Text c="dimmed">{t('app.loading')}</Text> : null}
      {data ? (
        <>
          <Text size="sm" c="dimmed">
            {t('dashboard.daysNote', { zone: data.timeZone })}
          </Text>
          <RecipientsChart data={data} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <SubmitErrors data={data} />
            <LatencyTable data={data} />
          </SimpleGrid>
          <LatencyChart data={data} />
        </>
      ) : null}
    </Stack>
  );
}

function RecipientsChart({ data }: { data: PlatformDashboard }) {
  const { t } = useTranslation();
  const dayLabel = useDayLabel();
  const number = useFormatNumber();
  const days = data.days.map((d) => ({ label: dayLabel(d.day), ...d.recipients }));
  return (
    <Card withBorder component="section" aria-labelledby="platform-recipients">
      <Title order={2} size="h4" mb="sm" id="platform-recipients">
        {t('platform.recipientsPerCarrier')}
      </Title>
      {data.carriers.length === 0 ? (
        <Text>{t('platform.nothingYet')}</Text>
      ) : (
        <BarChart
          h={260}
          data={days}
          dataKey="label"
          type="stacked"
          tickLine="y"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={(value) => number(value)}
          yAxisProps={{ allowDecimals: false }}
          series={data.carriers.map((carrier, i) => ({
            name: carrier,
            color: CARRIER_COLOURS[i % CARRIER_COLOURS.length],
          }))}
        />
      )}
    </Card>
  );
}

function SubmitErrors({ data }: { data: PlatformDashboard }) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  return (
    <Card withBorder component="section" aria-labelledby="platform-errors">
      <Title order={2} size="h4" mb="sm" id="platform-errors">
        {t('platform.submitErrors')}
      </Title>
      {data.submitErrors.length === 0 ? (
        <Text>{t('platform.noErrors')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={280}>
          <Table verticalSpacing="xs" aria-labelledby="platform-errors">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('platform.code')}</Table.Th>
                <Table.Th>{t('platform.carrier')}</Table.Th>
                <Table.Th ta="right">{t('platform.count')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.submitErrors.map((e) => (
                <Table.Tr key={`${e.code} ${e.carrier}`}>
                  <Table.Td ff="monospace">{e.code}</Table.Td>
                  <Table.Td>{e.carrier}</Table.Td>
                  <Table.Td ta="right">{number(e.count)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

function useSeconds(): (value: number | null) => string {
  const { t } = useTranslation();
  const number = useFormatNumber('seconds');
  return (value) => (value === null ? '—' : t('platform.seconds', { value: number(value) }));
}

function LatencyTable({ data }: { data: PlatformDashboard }) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  const seconds = useSeconds();
  return (
    <Card withBorder component="section" aria-labelledby="platform-latency">
      <Title order={2} size="h4" mb="sm" id="platform-latency">
        {t('platform.latency')}
      </Title>
      {data.latency.length === 0 ? (
        <Text>{t('platform.noReceipts')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table
            verticalSpacing="xs"
            horizontalSpacing={6}
            fz="sm"
            aria-labelledby="platform-latency"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('platform.carrier')}</Table.Th>
                <Table.Th ta="right">{t('platform.receipts')}</Table.Th>
                <Table.Th ta="right">p50</Table.Th>
                <Table.Th ta="right">p90</Table.Th>
                <Table.Th ta="right">p99</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.latency.map((row) => (
                <Table.Tr key={row.carrier}>
                  <Table.Td>{row.carrier}</Table.Td>
                  <Table.Td ta="right">{number(row.receipts)}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {seconds(row.p50)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {seconds(row.p90)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {seconds(row.p99)}
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

function LatencyChart({ data }: { data: PlatformDashboard }) {
  const { t } = useTranslation();
  const dayLabel = useDayLabel();
  const seconds = useSeconds();
  const days = data.latencyDays.map((d) => ({
    label: dayLabel(d.day),
    p50: d.p50,
    p90: d.p90,
    p99: d.p99,
  }));
  return (
    <Card withBorder component="section" aria-labelledby="platform-latency-days">
      <Title order={2} size="h4" mb="sm" id="platform-latency-days">
        {t('platform.latencyPerDay')}
      </Title>
      <LineChart
        h={240}
        data={days}
        dataKey="label"
        tickLine="y"
        withLegend
        connectNulls={false}
        legendProps={{ verticalAlign: 'bottom' }}
        valueFormatter={(value) => seconds(value)}
        series={[
          { name: 'p50', color: 'teal.6' },
          { name: 'p90', color: 'orange.6' },
          { name: 'p99', color: 'red.6' },
        ]}
      />
    </Card>
  );
}
