import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useSenders } from '../../features/sender-names/api/senders';
import { RequestForm } from '../../features/sender-names/components/request-form';
import { QueryFailure } from '../../components/ui/query-failure';
import { usePageTitle } from '../../lib/use-page-title';

/** An owner asks for a new sender name, with documents. */
export function SenderNameRequestNewRoute() {
  const { t } = useTranslation();
  usePageTitle(t('senders.form.title'));
  const navigate = useNavigate();
  const senders = useSenders();
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/sender-names" size="sm">
        ← {t('areas.senderNames.title')}
      </Anchor>
      <div>
        <Title order={1}>{t('senders.form.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('senders.form.summary')}
        </Text>
      </div>
      {senders.isPending ? <Loader size="sm" /> : null}
      {senders.isError ? <QueryFailure error={senders.error} /> : null}
      {senders.data ? (
        <RequestForm
          limits={senders.data.documentLimits}
          onSubmitted={(request) => void navigate(`/sender-names/requests/${request.id}`)}
        />
      ) : null}
    </Stack>
  );
}
