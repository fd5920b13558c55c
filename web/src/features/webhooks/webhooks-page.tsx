import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookEndpointView,
  type WebhookList,
} from '@contract/webhooks';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { useFormatDate } from '../../lib/use-format-date';
import { usePageTitle } from '../../lib/use-page-title';
import {
  useDeleteWebhook,
  useRevealWebhookSecret,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useUpdateWebhook,
  useWebhooks,
} from './api';
import { EndpointFormModal } from './endpoint-form-modal';
import {
  DisabledReason,
  EndpointStatusBadge,
  EventTypeList,
  useLastShown,
  useNotify,
} from './parts';
import { SecretModal, type ShownSecret } from './secret-modal';

/**
 * The owner's webhook endpoints: add one (its secret shown at once), change, disable and enable,
 * show or rotate the secret, delete, send a test event, and open an endpoint's deliveries.
 * A card each, at every width: an endpoint has more to say and do than a table row holds.
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.webhooks.title'));
  const list = useWebhooks();
  const [editing, setEditing] = useState<{ endpoint: WebhookEndpointView | null } | null>(null);
  const lastEditing = useLastShown(editing);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpointView | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointView | null>(null);
  const endpoints = list.data?.data ?? [];
  const full = endpoints.length >= WEBHOOK_ENDPOINTS_MAX;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t('areas.webhooks.title')}</Title>
          <Text c="dimmed" mt="xs">
            {t('areas.webhooks.summary')}
          </Text>
        </div>
        <Button onClick={() => setEditing({ endpoint: null })} disabled={!list.data || full}>
          {t('webhooks.add')}
        </Button>
      </Group>
      <ApiErrorAlert error={list.error} />
      {full ? (
        <Text size="sm" c="dimmed">
          {t('webhooks.full', { count: WEBHOOK_ENDPOINTS_MAX })}
        </Text>
      ) : null}
      {list.isPending ? <Text c="dimmed">{t('app.loading')}</Text> : null}
      {list.data && endpoints.length === 0 ? <Text>{t('webhooks.none')}</Text> : null}
      {endpoints.length > 0 ? (
        <Stack gap="md" component="ul" p={0} m={0} aria-label={t('webhooks.listLabel')}>
          {endpoints.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              onEdit={() => setEditing({ endpoint })}
              onRotate={() => setRotating(endpoint)}
              onDelete={() => setDeleting(endpoint)}
              onSecret={setShown}
            />
          ))}
        </Stack>
      ) : null}
      <EndpointFormModal
        opened={editing !== null}
        endpoint={lastEditing?.endpoint ?? null}
        eventTypes={list.data?.eventTypes ?? ([] as WebhookList['eventTypes'])}
        onClose={() => setEditing(null)}
        onCreated={(created) =>
          setShown({ kind: 'created', url: created.endpoint.url, secret: created.secret })
        }
      />
      <SecretModal shown={shown} onClose={() => setShown(null)} />
      <RotateModal
        endpoint={rotating}
        onClose={() => setRotating(null)}
        onRotated={(secret) => {
          setRotating(null);
          setShown(secret);
        }}
      />
      <DeleteModal endpoint={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function EndpointCard({
  endpoint,
  onEdit,
  onRotate,
  onDelete,
  onSecret,
}: {
  endpoint: WebhookEndpointView;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
  onSecret: (shown: ShownSecret) => void;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const update = useUpdateWebhook();
  const test = useSendTestWebhook();
  const reveal = useRevealWebhookSecret();
  const notify = useNotify();
  const headingId = `webhook-${endpoint.id}`;
  const error = update.error ?? test.error ?? reveal.error;

  return (
    <Card
      component="li"
      withBorder
      padding="md"
      aria-labelledby={headingId}
      style={{ listStyle: 'none' }}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Title
            order={2}
            size="h5"
            id={headingId}
            ff="monospace"
            style={{ overflowWrap: 'anywhere', fontWeight: 600 }}
          >
            {endpoint.url}
          </Title>
          <EndpointStatusBadge enabled={endpoint.enabled} />
        </Group>
        {endpoint.description ? <Text size="sm">{endpoint.description}</Text> : null}
        {endpoint.enabled ? null : <DisabledReason reason={endpoint.disabledReason} />}
        <Group gap="xs" align="center">
          <Text size="sm" c="dimmed">
            {t('webhooks.events')}
          </Text>
          <EventTypeList types={endpoint.eventTypes} />
        </Group>
        <Text size="xs" c="dimmed">
          {t('webhooks.addedOn', { date: formatDate(endpoint.createdAt) })}
        </Text>
        <ApiErrorAlert error={error} />
        <Group gap="xs" mt={4}>
          <Button size="xs" component={Link} to={`/webhooks/${endpoint.id}`}>
            {t('webhooks.deliveriesLink')}
          </Button>
          <Button
            size="xs"
            variant="light"
            loading={test.isPending}
            onClick={() =>
              test.mutate(endpoint.id, {
                onSuccess: ({ eventId }) => notify(t('webhooks.testSent', { eventId })),
              })
            }
          >
            {t('webhooks.sendTest')}
          </Button>
          <Button size="xs" variant="light" onClick={onEdit}>
            {t('webhooks.edit')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color={endpoint.enabled ? 'orange' : 'teal'}
            loading={update.isPending}
            onClick={() =>
              update.mutate({ endpointUid: endpoint.id, body: { enabled: !endpoint.enabled } })
            }
          >
            {t(endpoint.enabled ? 'webhooks.disable' : 'webhooks.enable')}
          </Button>
          <Button
            size="xs"
            variant="light"
            loading={reveal.isPending}
            onClick={() =>
              reveal.mutate(endpoint.id, {
                onSuccess: ({ secret }) =>
                  onSecret({ kind: 'revealed', url: endpoint.url, secret }),
              })
            }
          >
            {t('webhooks.showSecret')}
          </Button>
          <Button size="xs" variant="light" onClick={onRotate}>
            {t('webhooks.rotate')}
          </Button>
          <Button size="xs" variant="light" color="red" onClick={onDelete}>
            {t('webhooks.delete')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Asks before an action on an endpoint that cannot be undone (a rotation, a deletion): the
 * endpoint's URL in the question, the action's error in the dialog.
 */
function ConfirmEndpointModal({
  endpoint: current,
  title,
  question,
  action,
  color,
  mutation,
  onClose,
}: {
  endpoint: WebhookEndpointView | null;
  title: string;
  question: (url: string) => string;
  action: string;
  color: string;
  mutation: {
    error: unknown;
    isPending: boolean;
    reset: () => void;
    run: (endpoint: WebhookEndpointView) => void;
  };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const endpoint = useLastShown(current);
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Modal opened={current !== null} onClose={close} title={title}>
      {endpoint ? (
        <Stack gap="md">
          <ApiErrorAlert error={mutation.error} />
          <Text style={{ overflowWrap: 'anywhere' }}>{question(endpoint.url)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('webhooks.cancel')}
            </Button>
            <Button
              color={color}
              loading={mutation.isPending}
              onClick={() => mutation.run(endpoint)}
            >
              {action}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function RotateModal({
  endpoint,
  onClose,
  onRotated,
}: {
  endpoint: WebhookEndpointView | null;
  onClose: () => void;
  onRotated: (shown: ShownSecret) => void;
}) {
  const { t } = useTranslation();
  const rotate = useRotateWebhookSecret();
  return (
    <ConfirmEndpointModal
      endpoint={endpoint}
      title={t('webhooks.rotateTitle')}
      question={(url) => t('webhooks.rotateConfirm', { url })}
      action={t('webhooks.rotate')}
      color="orange"
      onClose={onClose}
      mutation={{
        error: rotate.error,
        isPending: rotate.isPending,
        reset: rotate.reset,
        run: (shown) =>
          rotate.mutate(shown.id, {
            onSuccess: (rotated) => {
              rotate.reset();
              onRotated({
                kind: 'rotated',
                url: rotated.endpoint.url,
                secret: rotated.secret,
                previousSecretUntil: rotated.previousSecretUntil,
              });
            },
          }),
      }}
    />
  );
}

function DeleteModal({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpointView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteWebhook();
  return (
    <ConfirmEndpointModal
      endpoint={endpoint}
      title={t('webhooks.deleteTitle')}
      question={(url) => t('webhooks.deleteConfirm', { url })}
      action={t('webhooks.delete')}
      color="red"
      onClose={onClose}
      mutation={{
        error: remove.error,
        isPending: remove.isPending,
        reset: remove.reset,
        run: (shown) =>
          remove.mutate(shown.id, {
            onSuccess: () => {
              remove.reset();
              onClose();
            },
          }),
      }}
    />
  );
}
