import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useSignOutEverywhere } from '../api';

export function SessionsCard() {
  const { t } = useTranslation();
  const everywhere = useSignOutEverywhere();
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="sessions-title">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" id="sessions-title">
          {t('profile.everywhere.title')}
        </Title>
        <Text>{t('profile.everywhere.summary')}</Text>
        <ApiErrorAlert error={everywhere.error} />
        <Button
          variant="light"
          color="red"
          loading={everywhere.isPending}
          onClick={() => everywhere.mutate()}
        >
          {t('profile.everywhere.submit')}
        </Button>
      </Stack>
    </Card>
  );
}
