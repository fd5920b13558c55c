import { BarChart } from '@mantine/charts';
import { Alert, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { StatCard } from '../../components/ui/stat-card';
import { useTranslation } from 'react-i18next';
import type { AccountDashboard } from '@contract/dashboard';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useSessionUser } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { useAccountDashboard } from './api';
import { useDayLabel } from './day-label';
import { LatestMessages } from './latest-messages';
import { ThresholdForm } from './threshold-form';
import { useFormatNumber } from '../../lib/use-format-number';

/** The customer's dashboard: balance and its warning, the last 30 days, the latest messages. */
export function DashboardPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.dashboard.title'));
  const dashboard = useAccountDashboard();
  const data = dashboard.data;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.dashboard.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('dashboard.summary')}
        </Text>
      </div>
      <ApiErrorAlert error={dashboard.error} />
      {dashboard.isPending ? <Text c="dimmed">{t('app.loading')}</Text> : null}
      {data ? (
        <>
          <BalanceSection data={data} />
          <DayCharts data={data} />
          <LatestMessages messages={data.latest} />
        </>
      ) : null}
    </Stack>
  );
}

function BalanceSection({ data }: { data: AccountDashboard }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const number = useFormatNumber();
  return (
    <Stack gap="sm">
      {data.lowBalance ? (
        <Alert color="orange" title={t('dashboard.lowBalanceTitle')} data-testid="low-balance">
          {t('dashboard.lowBalance', {
            count: data.balance,
            threshold: data.lowBalanceThreshold,
          })}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} maw={760}>
        <StatCard
          label={t('credits.balance')}
          value={number(data.balance)}
          testId="dashboard-balance"
        />
        <Card withBorder>
          {user.role === 'owner' ? (
            <ThresholdForm threshold={data.lowBalanceThreshold} />
          ) : (
            <>
              <Text size="sm" c="dimmed">
                {t('dashboard.threshold')}
              </Text>
              <Text size="sm" mt={4}>
                {data.lowBalanceThreshold > 0
                  ? t('dashboard.thresholdIs', { count: data.lowBalanceThreshold })
                  : t('dashboard.thresholdOff')}
              </Text>
            </>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

function DayCharts({ data }: { data: AccountDashboard }) {
  const { t } = useTranslation();
  const dayLabel = useDayLabel();
  const number = useFormatNumber();
  const percent = useFormatNumber('percent');
  const days = data.days.map((d) => ({ ...d, label: dayLabel(d.day) }));
  const common = {
    h: 220,
    data: days,
    dataKey: 'label',
    tickLine: 'y' as const,
    yAxisProps: { allowDecimals: false },
    valueFormatter: (value: number) => number(value),
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('dashboard.daysNote', { zone: data.timeZone })}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder component="section" aria-labelledby="chart-sends">
          <Title order={2} size="h4" mb="sm" id="chart-sends">
            {t('dashboard.sendsPerDay')}
          </Title>
          <BarChart
            {...common}
            series={[{ name: 'sends', label: t('dashboard.sends'), color: 'blue.6' }]}
          />
        </Card>
        <Card withBorder component="section" aria-labelledby="chart-recipients">
          <Title order={2} size="h4" mb="sm" id="chart-recipients">
            {t('dashboard.recipientsPerDay')}
          </Title>
          <BarChart
            {...common}
            series={[{ name: 'recipients', label: t('dashboard.recipients'), color: 'indigo.6' }]}
          />
        </Card>
      </SimpleGrid>
      <Card withBorder component="section" aria-labelledby="chart-delivery">
        <Title order={2} size="h4" id="chart-delivery">
          {t('dashboard.deliveryPerDay')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t('dashboard.deliveryNote')}
        </Text>
        <BarChart
          {...common}
          h={260}
          type="percent"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={(value) => number(value)}
          yAxisProps={{ tickFormatter: (value: number) => percent(value), width: 48 }}
          series={[
            { name: 'success', label: t('dashboard.statuses.success'), color: 'teal.6' },
            { name: 'failed', label: t('dashboard.statuses.failed'), color: 'red.6' },
            { name: 'expired', label: t('dashboard.statuses.expired'), color: 'orange.5' },
            { name: 'timeout', label: t('dashboard.statuses.timeout'), color: 'gray.6' },
          ]}
        />
      </Card>
    </Stack>
  );
}
