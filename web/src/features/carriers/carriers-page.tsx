import { Alert, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { StatCard } from '../../components/ui/stat-card';
import { useTranslation } from 'react-i18next';
import type { CarriersStatus } from '@contract/carriers';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useFormatDate } from '../../lib/use-format-date';
import { useFormatNumber } from '../../lib/use-format-number';
import { usePageTitle } from '../../lib/use-page-title';
import { useCarriersStatus } from './api';
import { CarrierCard } from './components/carrier-card';
import { DispatcherTable } from './components/dispatcher-table';
import { secondsBetween } from './seconds-between';

/**
 * What every dispatcher process's /status shows, as each publishes it, added up per carrier
 * and listed per process; refreshed every few seconds.
 */
export function CarriersPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.adminCarriers.title'));
  const status = useCarriersStatus();
  const data = status.data;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.adminCarriers.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.adminCarriers.summary')}
        </Text>
      </div>
      <ApiErrorAlert error={status.error} />
      {data ? (
        <>
          <Summary data={data} />
          {data.silentDispatchers.length > 0 ? <SilentDispatchers data={data} /> : null}
          {data.carriers.length === 0 ? (
            <Text>{t('carriers.none', { count: data.staleAfterSeconds })}</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {data.carriers.map((carrier) => (
                <CarrierCard key={carrier.name} carrier={carrier} />
              ))}
            </SimpleGrid>
          )}
          {data.dispatchers.length > 0 ? (
            <Stack gap="xs" component="section" aria-labelledby="dispatcher-list">
              <Title order={2} size="h4" id="dispatcher-list">
                {t('carriers.dispatcherList')}
              </Title>
              <DispatcherTable dispatchers={data.dispatchers} checkedAt={data.checkedAt} />
            </Stack>
          ) : null}
        </>
      ) : status.isPending ? (
        <Text c="dimmed">{t('app.loading')}</Text>
      ) : null}
    </Stack>
  );
}

function Summary({ data }: { data: CarriersStatus }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const number = useFormatNumber();
  const sum = (pick: (stats: CarriersStatus['dispatchers'][number]['stats']) => number) =>
    data.dispatchers.reduce((total, dispatcher) => total + pick(dispatcher.stats), 0);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
      <StatCard
        label={t('carriers.queueDepth')}
        value={number(data.queueDepth)}
        hint={t('carriers.queueDepthHint')}
        testId="queue-depth"
      />
      <StatCard
        label={t('carriers.dispatchers')}
        value={t('carriers.dispatchersReporting', { count: data.dispatchers.length })}
        hint={t('carriers.dispatcherTotals', {
          inFlight: t('units.parts', { count: sum((s) => s.partsInFlight) }),
          submitted: sum((s) => s.submitted),
          receipts: t('units.receipts', { count: sum((s) => s.receipts) }),
        })}
        testId="dispatchers-reporting"
      />
      <Card withBorder>
        <Text size="sm" c="dimmed">
          {t('carriers.checkedAt')}
        </Text>
        <Text size="sm" aria-live="polite">
          {formatDate(data.checkedAt)}
        </Text>
        <Text size="xs" c="dimmed">
          {t('carriers.refreshing')}
        </Text>
      </Card>
    </SimpleGrid>
  );
}

function SilentDispatchers({ data }: { data: CarriersStatus }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <Alert color="yellow" title={t('carriers.silentTitle')} data-testid="silent-dispatchers">
      <Text size="sm" mb="xs">
        {t('carriers.silentHint', { count: data.staleAfterSeconds })}
      </Text>
      <List size="sm">
        {data.silentDispatchers.map((dispatcher) => (
          <List.Item key={dispatcher.owner}>
            {t('carriers.silentOne', {
              owner: dispatcher.owner,
              at: formatDate(dispatcher.reportedAt),
              seconds: secondsBetween(dispatcher.reportedAt, data.checkedAt),
            })}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
