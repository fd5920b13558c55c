import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { StatCard } from '../../components/ui/stat-card';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title';
import { useLedger } from './api';
import { LedgerTable } from './ledger-table';
import { useFormatNumber } from '../../lib/use-format-number';

/** The owner's balance, price per part and ledger. */
export function CreditsPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.credits.title'));
  const ledger = useLedger({ own: true });
  const first = ledger.data?.pages[0];
  const number = useFormatNumber();
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.credits.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.credits.summary')}
        </Text>
      </div>
      {first ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} maw={560}>
          <StatCard
            label={t('credits.balance')}
            value={number(first.balance)}
            testId="credit-balance"
          />
          <StatCard label={t('credits.pricePerPart')} value={number(first.pricePerPart)} />
        </SimpleGrid>
      ) : null}
      <Group>
        <Title order={2} size="h3">
          {t('credits.ledger')}
        </Title>
      </Group>
      <LedgerTable ledger={ledger} />
    </Stack>
  );
}
