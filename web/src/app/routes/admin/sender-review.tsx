import { Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReviewQueue } from '../../../features/sender-names/api/review';
import { RequestTable } from '../../../features/sender-names/components/request-table';
import { QueryFailure } from '../../../components/ui/query-failure';
import { usePageTitle } from '../../../lib/use-page-title';

/** The review queue: requests waiting for a decision, the longest waiting first. */
export function AdminSenderReviewRoute() {
  const { t } = useTranslation();
  usePageTitle(t('areas.adminSenderReview.title'));
  const [status, setStatus] = useState<'pending' | 'all'>('pending');
  const queue = useReviewQueue(status);
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.adminSenderReview.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.adminSenderReview.summary')}
        </Text>
      </div>
      <SegmentedControl
        aria-label={t('senders.review.show')}
        value={status}
        onChange={(value) => setStatus(value === 'all' ? 'all' : 'pending')}
        data={[
          { value: 'pending', label: t('senders.review.waiting') },
          { value: 'all', label: t('senders.review.all') },
        ]}
        w="fit-content"
      />
      {queue.isPending ? <Loader size="sm" /> : null}
      {queue.isError ? <QueryFailure error={queue.error} /> : null}
      {queue.data ? (
        <RequestTable
          requests={queue.data.data}
          linkTo={(request) => `/admin/sender-review/${request.id}`}
          showAccount
          label={t('areas.adminSenderReview.title')}
        />
      ) : null}
    </Stack>
  );
}
