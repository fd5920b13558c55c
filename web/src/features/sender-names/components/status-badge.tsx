import { Badge } from '@mantine/core';
import type { SenderRequestSummary, Sender } from '@contract/senders';
import { useTranslation } from 'react-i18next';

const SENDER_COLOURS: Record<Sender['status'], string> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
  suspended: 'gray',
};

const REQUEST_COLOURS: Record<SenderRequestSummary['status'], string> = {
  pending: 'yellow',
  changes_requested: 'orange',
  approved: 'green',
  rejected: 'red',
};

export function SenderStatusBadge({ status }: { status: Sender['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={SENDER_COLOURS[status]} variant="light">
      {t(`senders.senderStatus.${status}`)}
    </Badge>
  );
}

export function RequestStatusBadge({ status }: { status: SenderRequestSummary['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={REQUEST_COLOURS[status]} variant="light">
      {t(`senders.requestStatus.${status}`)}
    </Badge>
  );
}
