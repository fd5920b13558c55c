import { Badge, Code, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookDeliveryView, WebhookEndpointView } from '@contract/webhooks';
import { useFormatDate } from '../../lib/use-format-date';

/** A badge that is never cut short beside a long address or in a narrow column. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

const STATE_COLOURS: Record<WebhookDeliveryView['state'], string> = {
  pending: 'yellow',
  delivered: 'teal',
  failed: 'red',
};

export function DeliveryStateBadge({ state }: { state: WebhookDeliveryView['state'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOURS[state]} variant="light" style={WHOLE}>
      {t(`webhooks.deliveries.state.${state}`)}
    </Badge>
  );
}

export function EndpointStatusBadge({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={enabled ? 'teal' : 'gray'} variant={enabled ? 'light' : 'outline'} style={WHOLE}>
      {t(enabled ? 'webhooks.enabled' : 'webhooks.disabled')}
    </Badge>
  );
}

/** The event types an endpoint receives, or "All events" when it chose none. */
export function EventTypeList({ types }: { types: WebhookEndpointView['eventTypes'] }) {
  const { t } = useTranslation();
  if (types.length === 0) {
    return (
      <Badge variant="outline" color="blue" tt="none">
        {t('webhooks.allEvents')}
      </Badge>
    );
  }
  return (
    <Group gap={6}>
      {types.map((type) => (
        <Badge key={type} variant="outline" color="gray" tt="none" ff="monospace">
          {type}
        </Badge>
      ))}
    </Group>
  );
}

/** Why Nok (or a person) disabled an endpoint, in the console's language when it is a known why. */
export function DisabledReason({ reason }: { reason: string | null }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  let text: string;
  const failing = reason ? /^every delivery failed since (\S+)$/.exec(reason) : null;
  if (reason === null || reason === 'disabled by a person') text = t('webhooks.reason.person');
  else if (reason === 'the endpoint answered 410 Gone') text = t('webhooks.reason.gone');
  else if (failing) text = t('webhooks.reason.failing', { date: formatDate(failing[1]!) });
  else text = reason;
  return (
    <Text size="sm" c="red.8">
      {t('webhooks.disabledBecause', { reason: text })}
    </Text>
  );
}

/** The start of an answer or the error of an attempt, as the deliverer kept it. */
export function AttemptOutcome({
  delivery,
  lines = 2,
}: {
  delivery: WebhookDeliveryView;
  lines?: number;
}) {
  if (delivery.error) {
    return (
      <Text size="sm" c="red.8" lineClamp={lines} style={{ overflowWrap: 'anywhere' }}>
        {delivery.error}
      </Text>
    );
  }
  if (delivery.response) {
    return (
      <Text size="sm" lineClamp={lines} style={{ overflowWrap: 'anywhere' }}>
        <Code>{delivery.response}</Code>
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

/** Says that something was done, in a notification whose close button is named. */
export function useNotify(): (message: string) => void {
  const { t } = useTranslation();
  return (message) =>
    notifications.show({
      color: 'teal',
      message,
      closeButtonProps: { 'aria-label': t('app.close') },
    });
}

/**
 * `value`, or the last one that was not null: a modal closed by setting its subject to null
 * keeps its title and content while it fades out.
 */
export function useLastShown<T>(value: T | null): T | null {
  const [last, setLast] = useState(value);
  if (value !== null && value !== last) setLast(value);
  return value ?? last;
}
