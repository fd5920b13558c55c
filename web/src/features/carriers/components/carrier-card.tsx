import { Badge, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CarrierTotal } from '@contract/carriers';
import { useFormatNumber } from '../../../lib/use-format-number';

/** One carrier over every dispatcher that reports it: binds, rate against the limit, queue. */
export function CarrierCard({ carrier }: { carrier: CarrierTotal }) {
  const { t } = useTranslation();
  const rateOf = useFormatNumber('rate');
  const up = carrier.bindsUp > 0;
  const full = carrier.bindsUp >= carrier.bindsWanted;
  const rate =
    carrier.submitsPerSecondLimit > 0
      ? (carrier.currentRatePerSecond / carrier.submitsPerSecondLimit) * 100
      : 0;
  return (
    <Card withBorder component="section" aria-label={carrier.name} data-testid="carrier">
      <Group justify="space-between" mb="sm" wrap="nowrap">
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
              current: rateOf(carrier.currentRatePerSecond),
              limit: rateOf(carrier.submitsPerSecondLimit),
            })}
          </Text>
          <Progress value={rate} size="sm" mt={4} aria-label={t('carriers.rateLabel')} />
        </div>
        <Text size="sm">
          {t('carriers.inFlight', { inFlight: carrier.inFlight, waiting: carrier.waiting })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('carriers.carrierDispatchers', { count: carrier.dispatchers })}
        </Text>
        {carrier.lastError ? (
          <Text size="sm" c="red.9">
            {t('carriers.lastError', { error: carrier.lastError })}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
