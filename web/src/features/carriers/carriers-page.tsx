import { Badge, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Carrier } from '@contract/carriers';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useFormatDate } from '../../lib/use-format-date';
import { usePageTitle } from '../../lib/use-page-title';
import { useCarriersStatus } from './api';

/** What the operator listener's /status shows, refreshed every few seconds. */
export function CarriersPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('areas.adminCarriers.title'));
  const status = useCarriersStatus();
  const formatDate = useFormatDate();
  const number = new Intl.NumberFormat(i18n.resolvedLanguage === 'th' ? 'th-TH' : 'en-GB');
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
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                {t('carriers.queueDepth')}
              </Text>
              <Text size="xl" fw={700} data-testid="queue-depth">
                {number.format(data.queueDepth)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('carriers.queueDepthHint')}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                {t('carriers.dispatcher')}
              </Text>
              {data.dispatcher ? (
                <Text size="sm">
                  {t('carriers.dispatcherStats', {
                    inFlight: number.format(data.dispatcher.partsInFlight),
                    submitted: number.format(data.dispatcher.submitted),
                    receipts: number.format(data.dispatcher.receipts),
                  })}
                </Text>
              ) : (
                <Text size="sm">{t('carriers.dispatcherElsewhere')}</Text>
              )}
            </Card>
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
          {data.carriers.length === 0 ? (
            <Text>{t('carriers.none')}</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {data.carriers.map((carrier) => (
                <CarrierCard key={carrier.name} carrier={carrier} />
              ))}
            </SimpleGrid>
          )}
        </>
      ) : status.isPending ? (
        <Text c="dimmed">{t('app.loading')}</Text>
      ) : null}
    </Stack>
  );
}

function CarrierCard({ carrier }: { carrier: Carrier }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.resolvedLanguage === 'th' ? 'th-TH' : 'en-GB', {
    maximumFractionDigits: 1,
  });
  const up = carrier.bindsUp > 0;
  const full = carrier.bindsUp >= carrier.bindsWanted;
  const rate =
    carrier.submitsPerSecondLimit > 0
      ? (carrier.currentRatePerSecond / carrier.submitsPerSecondLimit) * 100
      : 0;
  return (
    <Card withBorder component="section" aria-label={carrier.name} data-testid="carrier">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {carrier.name}
        </Title>
        <Badge color={!up ? 'red' : full ? 'teal' : 'yellow'}>
          {!up ? t('carriers.down') : full ? t('carriers.up') : t('carriers.partial')}
        </Badge>
      </Group>
      <Stack gap="xs">
        <Text size="sm">
          {t('carriers.binds', { up: carrier.bindsUp, wanted: carrier.bindsWanted })}
        </Text>
        <Text size="sm">{t('carriers.receivers', { up: carrier.receiversUp })}</Text>
        <div>
          <Text size="sm">
            {t('carriers.rate', {
              current: number.format(carrier.currentRatePerSecond),
              limit: number.format(carrier.submitsPerSecondLimit),
            })}
          </Text>
          <Progress value={rate} size="sm" mt={4} aria-label={t('carriers.rateLabel')} />
        </div>
        <Text size="sm">
          {t('carriers.inFlight', { inFlight: carrier.inFlight, waiting: carrier.waiting })}
        </Text>
        {carrier.lastError ? (
          <Text size="sm" c="red.8">
            {t('carriers.lastError', { error: carrier.lastError })}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
