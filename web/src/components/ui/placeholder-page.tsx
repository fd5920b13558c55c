import { Alert, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AreaKey } from '../../lib/i18n';
import { usePageTitle } from '../../lib/use-page-title';

/**
 * The page of an area whose feature is still to be built: its title, what it is for, and what
 * it will let the user do.
 */
export function PlaceholderPage({ area }: { area: AreaKey }) {
  const { t } = useTranslation();
  const title = t(`areas.${area}.title`);
  usePageTitle(title);
  const plans = t(`areas.${area}.plans`, { returnObjects: true });
  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>{title}</Title>
        <Text c="dimmed" mt="xs">
          {t(`areas.${area}.summary`)}
        </Text>
      </div>
      <Alert variant="light" title={t('placeholder.comingSoon')}>
        <List spacing="xs">
          {plans.map((plan) => (
            <List.Item key={plan}>{plan}</List.Item>
          ))}
        </List>
      </Alert>
    </Stack>
  );
}
