import { Anchor, Loader, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useAdminSenderRequest } from '../../../features/sender-names/api/review';
import { RequestDetail } from '../../../features/sender-names/components/request-detail';
import { ReviewPanel, SenderPanel } from '../../../features/sender-names/components/review-panel';
import { QueryFailure } from '../../../components/ui/query-failure';
import { usePageTitle } from '../../../lib/use-page-title';

/** One request under review: its documents and history, the decision, and the sender it made. */
export function AdminSenderReviewRequestRoute() {
  const { t } = useTranslation();
  const id = Number(useParams().requestId);
  const request = useAdminSenderRequest(id);
  usePageTitle(request.data?.name ?? t('senders.detail.title'));
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/admin/sender-review" size="sm">
        ← {t('areas.adminSenderReview.title')}
      </Anchor>
      {request.isPending ? <Loader size="sm" /> : null}
      {request.isError ? <QueryFailure error={request.error} /> : null}
      {request.data ? (
        <>
          <RequestDetail request={request.data} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <ReviewPanel request={request.data} />
            <SenderPanel request={request.data} />
          </SimpleGrid>
        </>
      ) : null}
    </Stack>
  );
}
