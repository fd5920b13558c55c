import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSenders } from '../../features/sender-names/api/senders';
import { useSenderRequests } from '../../features/sender-names/api/sender-requests';
import { RequestTable } from '../../features/sender-names/components/request-table';
import { SenderTable } from '../../features/sender-names/components/sender-table';
import { useSessionUser } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { QueryFailure } from '../../components/ui/query-failure';

/** The account's sender names (own and shared, with status) and its requests for new ones. */
export function SenderNamesRoute() {
  const { t } = useTranslation();
  usePageTitle(t('areas.senderNames.title'));
  const user = useSessionUser();
  const senders = useSenders();
  const requests = useSenderRequests();
  return (
    <Stack gap="xl">
      <Group justify="space-between" align="end">
        <div>
          <Title order={1}>{t('areas.senderNames.title')}</Title>
          <Text c="dimmed" mt="xs">
            {t('areas.senderNames.summary')}
          </Text>
        </div>
        {user.role === 'owner' ? (
          <Button component={Link} to="/sender-names/new">
            {t('senders.list.request')}
          </Button>
        ) : null}
      </Group>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('senders.list.title')}
        </Title>
        {senders.isPending ? <Loader size="sm" /> : null}
        {senders.isError ? <QueryFailure error={senders.error} /> : null}
        {senders.data ? <SenderTable senders={senders.data.data} /> : null}
      </Stack>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('senders.requests.title')}
        </Title>
        {requests.isPending ? <Loader size="sm" /> : null}
        {requests.isError ? <QueryFailure error={requests.error} /> : null}
        {requests.data ? (
          <RequestTable
            requests={requests.data.data}
            linkTo={(request) => `/sender-names/requests/${request.id}`}
            label={t('senders.requests.title')}
          />
        ) : null}
      </Stack>
    </Stack>
  );
}
