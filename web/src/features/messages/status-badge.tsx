import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MessageStatus, RecipientStatus } from '@contract/messages';

export const MESSAGE_STATUS_COLOURS: Record<MessageStatus, string> = {
  scheduled: 'blue',
  pending: 'yellow',
  sent: 'teal',
  failed: 'red',
  cancelled: 'gray',
};

export const RECIPIENT_STATUS_COLOURS: Record<RecipientStatus, string> = {
  pending: 'yellow.6',
  success: 'teal.6',
  failed: 'red.6',
  invalid: 'grape.6',
  blocked: 'dark.4',
  expired: 'orange.6',
  timeout: 'gray.5',
};

export function MessageStatusBadge({ status }: { status: MessageStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={MESSAGE_STATUS_COLOURS[status]} variant="light">
      {t(`messages.status.${status}`)}
    </Badge>
  );
}

export function RecipientStatusBadge({ status }: { status: RecipientStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={RECIPIENT_STATUS_COLOURS[status].split('.')[0]} variant="light">
      {t(`messages.recipientStatus.${status}`)}
    </Badge>
  );
}
