import { Alert, Anchor, Loader, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSenderRequest } from '../../features/sender-names/api/sender-requests';
import { useSenders } from '../../features/sender-names/api/senders';
import { RequestDetail } from '../../features/sender-names/components/request-detail';
import { ResubmitForm } from '../../features/sender-names/components/resubmit-form';
import { QueryFailure } from '../../components/ui/query-failure';
import { useSessionUser } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';

/** One request of the account: details, documents, history with the reviewer's notes. */
export function SenderNameRequestRoute() {
  const { t } = useTranslation();
  const id = Number(useParams().requestId);
  const request = useSenderRequest(id);
  const senders = useSenders();
  const user = useSessionUser();
  usePageTitle(request.data?.name ?? t('senders.detail.title'));
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/sender-names" size="sm">
        ← {t('areas.senderNames.title')}
      </Anchor>
      {request.isPending ? <Loader size="sm" /> : null}
      {request.isError ? <QueryFailure error={request.error} /> : null}
      {request.data ? (
        <>
          {request.data.status === 'changes_requested' ? (
            <Alert color="orange" title={t('senders.detail.changesRequested')}>
              {request.data.history.findLast((step) => step.step === 'changes_requested')?.note}
            </Alert>
          ) : null}
          <RequestDetail request={request.data} />
          {request.data.status === 'changes_requested' && user.role === 'owner' && senders.data ? (
            <ResubmitForm request={request.data} limits={senders.data.documentLimits} />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
