import {
  Alert,
  Anchor,
  Button,
  Card,
  Divider,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { CancelledMessage, MessageDetail } from '@contract/messages';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { RecipientTally } from '../../components/ui/recipient-tally';
import { useSessionUser } from '../../lib/session';
import { useFormatDate } from '../../lib/use-format-date';
import { useFormatNumber } from '../../lib/use-format-number';
import { usePageTitle } from '../../lib/use-page-title';
import { messagesPath, useCancelMessage, useMessage, type MessageScope } from './api';
import { DeliveryChart } from './delivery-chart';
import { RecipientsPanel } from './recipients-panel';
import { MessageStatusBadge } from './status-badge';

/**
 * One message: its fields, its delivery counts as a chart that updates while it is sent, cancel
 * for a scheduled one (the account's own page only; an admin reads), and its recipients.
 */
export function MessagePage({ scope }: { scope: MessageScope }) {
  const { t } = useTranslation();
  const { uuid = '' } = useParams();
  const message = useMessage(scope, uuid);
  usePageTitle(message.data ? message.data.refNo : t('messages.message'));
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={messagesPath(scope)} size="sm">
        ← {t(scope === 'admin' ? 'areas.adminMessages.title' : 'areas.messages.title')}
      </Anchor>
      <ApiErrorAlert error={message.error} />
      {message.isPending ? <Text c="dimmed">{t('app.loading')}</Text> : null}
      {message.data ? (
        <MessageView key={message.data.uuid} scope={scope} message={message.data} />
      ) : null}
    </Stack>
  );
}

function MessageView({ scope, message }: { scope: MessageScope; message: MessageDetail }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const number = useFormatNumber();
  const [cancelled, setCancelled] = useState<CancelledMessage | null>(null);
  const r = message.recipients;
  const fields: [string, string][] = [
    [t('messages.sender'), message.sender],
    [t('messages.created'), formatDate(message.createdAt)],
    ...(message.scheduledTime
      ? [[t('messages.scheduled'), formatDate(message.scheduledTime)] as [string, string]]
      : []),
    ...(message.completedAt
      ? [[t('messages.completed'), formatDate(message.completedAt)] as [string, string]]
      : []),
    [t('messages.parts'), number(message.parts)],
    [
      t('messages.cost'),
      t('messages.costDetail', {
        cost: t('units.credits', { count: message.cost }),
        charged: t('units.recipients', { count: r.charged }),
        parts: t('units.parts', { count: message.parts }),
        price: message.creditsPerPart,
      }),
    ],
    ...(scope === 'admin'
      ? [[t('messages.account'), `#${message.accountId}`] as [string, string]]
      : []),
  ];
  return (
    <>
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={1} ff="monospace">
              {message.refNo}
            </Title>
            <MessageStatusBadge status={message.status} />
            {!message.final ? (
              <Group gap={6} aria-live="polite">
                <Loader size="xs" type="dots" />
                <Text size="sm" c="dimmed">
                  {t(message.status === 'scheduled' ? 'messages.waiting' : 'messages.live')}
                </Text>
              </Group>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed" mt={4} ff="monospace">
            {message.uuid}
          </Text>
        </div>
        {scope === 'account' && message.status === 'scheduled' ? (
          <CancelButton uuid={message.uuid} cost={message.cost} onCancelled={setCancelled} />
        ) : null}
      </Group>
      {cancelled ? <Refunded cancelled={cancelled} /> : null}
      <Card withBorder>
        <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.content}</Text>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Card withBorder>
          <Stack gap={6} component="dl" m={0}>
            {fields.map(([label, value]) => (
              <Group key={label} gap="xs" wrap="nowrap" align="flex-start">
                <Text component="dt" size="sm" c="dimmed" w={130} style={{ flexShrink: 0 }}>
                  {label}
                </Text>
                <Text component="dd" size="sm" m={0}>
                  {value}
                </Text>
              </Group>
            ))}
          </Stack>
          <Divider my="md" />
          <Title order={2} size="h4" mb="sm">
            {t('recipientTally.label')}
          </Title>
          <RecipientTally tally={r} />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t('messages.delivery')}
          </Title>
          {message.status === 'cancelled' ? (
            <Text c="dimmed">{t('messages.cancelledNothingSent')}</Text>
          ) : (
            <DeliveryChart counts={message.drSummary ?? message.counts} total={r.unique} />
          )}
        </Card>
      </SimpleGrid>
      <RecipientsPanel
        scope={scope}
        uuid={message.uuid}
        version={`${message.status}:${Object.values(message.counts).join('.')}`}
      />
    </>
  );
}

function CancelButton({
  uuid,
  cost,
  onCancelled,
}: {
  uuid: string;
  cost: number;
  onCancelled: (cancelled: CancelledMessage) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const cancel = useCancelMessage(uuid);
  return (
    <>
      <Button color="red" variant="light" onClick={() => setOpen(true)}>
        {t('messages.cancel')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('messages.cancelTitle')}>
        <Stack>
          <Text>{t('messages.cancelConfirm', { count: cost })}</Text>
          <ApiErrorAlert error={cancel.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('messages.keep')}
            </Button>
            <Button
              color="red"
              loading={cancel.isPending}
              onClick={() =>
                cancel.mutate(undefined, {
                  onSuccess: (result) => {
                    setOpen(false);
                    onCancelled(result);
                  },
                })
              }
            >
              {t('messages.cancelConfirmButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function Refunded({ cancelled }: { cancelled: CancelledMessage }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  return (
    <Alert color="teal" role="status" title={t('messages.cancelledTitle')}>
      <Text size="sm">
        {t('messages.refunded', { count: cancelled.refunded, balance: cancelled.balance })}
      </Text>
      {user.role === 'owner' ? (
        <Anchor component={Link} to="/credits" size="sm">
          {t('messages.seeLedger')}
        </Anchor>
      ) : null}
    </Alert>
  );
}
