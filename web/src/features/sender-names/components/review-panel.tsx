import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import type { SenderRequestDetail } from '@contract/senders';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestSenderChange, useReview } from '../api/review';

/** A reviewer's decision on a pending request: approve, ask for changes or reject, with a note. */
export function ReviewPanel({ request }: { request: SenderRequestDetail }) {
  const { t } = useTranslation();
  const review = useReview(request.id);
  const [note, setNote] = useState('');
  const [noteMissing, setNoteMissing] = useState(false);
  if (request.status !== 'pending') return null;

  const decide = (decision: 'approve' | 'reject' | 'request_changes') => {
    if (decision !== 'approve' && note.trim() === '') {
      setNoteMissing(true);
      return;
    }
    setNoteMissing(false);
    review.mutate(
      { decision, ...(note.trim() ? { note: note.trim() } : {}) },
      { onSuccess: () => setNote('') },
    );
  };

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('senders.review.title')}
        </Title>
        {review.isError ? (
          <Alert color="red" role="alert">
            {review.error.message}
          </Alert>
        ) : null}
        <Textarea
          label={t('senders.review.note')}
          description={t('senders.review.noteHint')}
          autosize
          minRows={3}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          error={noteMissing ? t('senders.review.noteRequired') : undefined}
        />
        <Group>
          <Button color="green" loading={review.isPending} onClick={() => decide('approve')}>
            {t('senders.review.approve')}
          </Button>
          <Button
            color="orange"
            variant="light"
            loading={review.isPending}
            onClick={() => decide('request_changes')}
          >
            {t('senders.review.requestChanges')}
          </Button>
          <Button
            color="red"
            variant="light"
            loading={review.isPending}
            onClick={() => decide('reject')}
          >
            {t('senders.review.reject')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** An approved request's sender: suspend or reinstate it, share it with other accounts. */
export function SenderPanel({ request }: { request: SenderRequestDetail }) {
  const { t } = useTranslation();
  const change = useRequestSenderChange(request.id);
  const [accountId, setAccountId] = useState<number | string>('');
  const sender = request.sender;
  if (!sender) return null;

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('senders.manage.title')}
        </Title>
        {change.error ? (
          <Alert color="red" role="alert">
            {change.error.message}
          </Alert>
        ) : null}
        <Group>
          {sender.status === 'approved' ? (
            <Button
              color="red"
              variant="light"
              loading={change.isPending}
              onClick={() => change.mutate({ senderId: sender.id, action: 'suspend' })}
            >
              {t('senders.manage.suspend')}
            </Button>
          ) : null}
          {sender.status === 'suspended' ? (
            <Button
              loading={change.isPending}
              onClick={() => change.mutate({ senderId: sender.id, action: 'reinstate' })}
            >
              {t('senders.manage.reinstate')}
            </Button>
          ) : null}
        </Group>
        <Text size="sm" fw={600}>
          {t('senders.manage.sharedWith')}
        </Text>
        {sender.sharedWith.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('senders.manage.notShared')}
          </Text>
        ) : (
          <Stack gap={4}>
            {sender.sharedWith.map((id) => (
              <Group key={id} gap="xs">
                <Text size="sm">{t('senders.manage.account', { id: String(id) })}</Text>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  aria-label={t('senders.manage.unshareLabel', { id: String(id) })}
                  onClick={() =>
                    change.mutate({ senderId: sender.id, action: 'unshare', accountId: id })
                  }
                >
                  {t('senders.manage.unshare')}
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        <Group align="end">
          <NumberInput
            label={t('senders.manage.shareWith')}
            min={1}
            allowDecimal={false}
            value={accountId}
            onChange={setAccountId}
            w={180}
          />
          <Button
            variant="light"
            disabled={sender.status !== 'approved' || typeof accountId !== 'number'}
            loading={change.isPending}
            onClick={() =>
              typeof accountId === 'number' &&
              change.mutate(
                { senderId: sender.id, action: 'share', accountId },
                { onSuccess: () => setAccountId('') },
              )
            }
          >
            {t('senders.manage.share')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
