import { Anchor, Button, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { WebhookDeliveryView } from '@contract/webhooks';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { ApiError } from '../../lib/api-client';
import { useFormatDate } from '../../lib/use-format-date';
import { useFormatNumber } from '../../lib/use-format-number';
import { usePageTitle } from '../../lib/use-page-title';
import {
  useResendWebhookDelivery,
  useSendTestWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from './api';
import { AttemptOutcome, DeliveryStateBadge, EndpointStatusBadge, useNotify } from './parts';

type Resend = ReturnType<typeof useResendWebhookDelivery>;

/**
 * One endpoint's recent deliveries, newest first: what each attempt came to, when the next one
 * is, and a resend. A table on a wide screen; at phone width a block each, every field labelled.
 */
export function WebhookDeliveriesPage({ endpointUid }: { endpointUid: string }) {
  const { t } = useTranslation();
  usePageTitle(t('webhooks.deliveries.title'));
  const endpoints = useWebhooks();
  const endpoint = endpoints.data?.data.find((e) => e.id === endpointUid);
  const deliveries = useWebhookDeliveries(endpointUid);
  const resend = useResendWebhookDelivery(endpointUid);
  const test = useSendTestWebhook();
  const phone = useMediaQuery('(max-width: 48em)');
  const notify = useNotify();
  const rows = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  const gone =
    (endpoints.data !== undefined && endpoint === undefined) ||
    (deliveries.error instanceof ApiError && deliveries.error.code === 'NOT_FOUND');

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/webhooks" size="sm">
        ← {t('areas.webhooks.title')}
      </Anchor>
      <div>
        <Title order={1}>{t('webhooks.deliveries.title')}</Title>
        {endpoint ? (
          <Group gap="sm" mt="xs" wrap="nowrap" align="flex-start">
            <Text ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {endpoint.url}
            </Text>
            <EndpointStatusBadge enabled={endpoint.enabled} />
          </Group>
        ) : null}
        <Text c="dimmed" mt="xs" size="sm">
          {t('webhooks.deliveries.summary')}
        </Text>
      </div>
      {gone ? (
        <Text role="alert">{t('webhooks.deliveries.notFound')}</Text>
      ) : (
        <>
          <Group gap="sm">
            <Button
              variant="default"
              loading={deliveries.isFetching && !deliveries.isPending}
              onClick={() => void deliveries.refetch()}
            >
              {t('webhooks.deliveries.refresh')}
            </Button>
            <Button
              variant="light"
              loading={test.isPending}
              onClick={() =>
                test.mutate(endpointUid, {
                  onSuccess: ({ eventId }) => notify(t('webhooks.testSent', { eventId })),
                })
              }
            >
              {t('webhooks.sendTest')}
            </Button>
          </Group>
          <ApiErrorAlert error={deliveries.error ?? resend.error ?? test.error} />
          {deliveries.isPending ? <Loader size="sm" /> : null}
          {deliveries.isSuccess && rows.length === 0 ? (
            <Text>{t('webhooks.deliveries.none')}</Text>
          ) : null}
          {rows.length > 0 && phone ? <DeliveryCards rows={rows} resend={resend} /> : null}
          {rows.length > 0 && !phone ? <DeliveryTable rows={rows} resend={resend} /> : null}
          {deliveries.hasNextPage ? (
            <Group>
              <Button
                variant="default"
                loading={deliveries.isFetchingNextPage}
                onClick={() => void deliveries.fetchNextPage()}
              >
                {t('webhooks.deliveries.older')}
              </Button>
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}

function DeliveryTable({ rows, resend }: { rows: WebhookDeliveryView[]; resend: Resend }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const number = useFormatNumber();
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table striped verticalSpacing="xs" aria-label={t('webhooks.deliveries.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('webhooks.deliveries.event')}</Table.Th>
            <Table.Th>{t('webhooks.deliveries.stateLabel')}</Table.Th>
            <Table.Th ta="right">{t('webhooks.deliveries.statusCode')}</Table.Th>
            <Table.Th ta="right">{t('webhooks.deliveries.latency')}</Table.Th>
            <Table.Th ta="right">{t('webhooks.deliveries.attempts')}</Table.Th>
            <Table.Th>{t('webhooks.deliveries.lastAttempt')}</Table.Th>
            <Table.Th>{t('webhooks.deliveries.outcome')}</Table.Th>
            <Table.Th>{t('webhooks.deliveries.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((delivery) => (
            <Table.Tr key={delivery.id} data-delivery={delivery.eventId}>
              <Table.Td>
                <Code>{delivery.eventType}</Code>
                <Text size="xs" c="dimmed" ff="monospace" mt={2}>
                  {delivery.eventId}
                </Text>
              </Table.Td>
              <Table.Td>
                <DeliveryStateBadge state={delivery.state} />
              </Table.Td>
              <Table.Td ta="right">{delivery.statusCode ?? '—'}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {delivery.latencyMs === null
                  ? '—'
                  : t('webhooks.deliveries.ms', { ms: delivery.latencyMs })}
              </Table.Td>
              <Table.Td ta="right">{number(delivery.attempts)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {delivery.lastAttemptAt ? formatDate(delivery.lastAttemptAt) : '—'}
                {delivery.nextAttemptAt ? (
                  <Text size="xs" c="dimmed" mt={2}>
                    {t('webhooks.deliveries.nextAttemptAt', {
                      date: formatDate(delivery.nextAttemptAt),
                    })}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td miw={160} maw={280}>
                <AttemptOutcome delivery={delivery} />
              </Table.Td>
              <Table.Td>
                <ResendButton delivery={delivery} resend={resend} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** At phone width: one block per delivery, every field labelled. */
function DeliveryCards({ rows, resend }: { rows: WebhookDeliveryView[]; resend: Resend }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <Stack gap="sm" component="ul" aria-label={t('webhooks.deliveries.tableLabel')} p={0} m={0}>
      {rows.map((delivery) => (
        <Stack
          key={delivery.id}
          component="li"
          gap={4}
          p="sm"
          data-delivery={delivery.eventId}
          style={{
            listStyle: 'none',
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-md)',
          }}
        >
          <Group justify="space-between" wrap="nowrap">
            <Code>{delivery.eventType}</Code>
            <DeliveryStateBadge state={delivery.state} />
          </Group>
          <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {delivery.eventId}
          </Text>
          <Text size="sm">
            {[
              delivery.statusCode === null
                ? null
                : t('webhooks.deliveries.httpStatus', { code: delivery.statusCode }),
              delivery.latencyMs === null
                ? null
                : t('webhooks.deliveries.ms', { ms: delivery.latencyMs }),
              t('webhooks.deliveries.attemptCount', { count: delivery.attempts }),
            ]
              .filter((part) => part !== null)
              .join(' · ')}
          </Text>
          {delivery.lastAttemptAt ? (
            <Text size="xs" c="dimmed">
              {t('webhooks.deliveries.lastAttemptAt', { date: formatDate(delivery.lastAttemptAt) })}
            </Text>
          ) : null}
          {delivery.nextAttemptAt ? (
            <Text size="xs" c="dimmed">
              {t('webhooks.deliveries.nextAttemptAt', { date: formatDate(delivery.nextAttemptAt) })}
            </Text>
          ) : null}
          <AttemptOutcome delivery={delivery} lines={3} />
          <Group>
            <ResendButton delivery={delivery} resend={resend} />
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}

function ResendButton({ delivery, resend }: { delivery: WebhookDeliveryView; resend: Resend }) {
  const { t } = useTranslation();
  const notify = useNotify();
  return (
    <Button
      size="xs"
      variant="light"
      loading={resend.isPending && resend.variables === delivery.id}
      aria-label={t('webhooks.deliveries.resendNamed', { eventId: delivery.eventId })}
      onClick={() =>
        resend.mutate(delivery.id, {
          onSuccess: () => notify(t('webhooks.deliveries.resent')),
        })
      }
    >
      {t('webhooks.deliveries.resend')}
    </Button>
  );
}
