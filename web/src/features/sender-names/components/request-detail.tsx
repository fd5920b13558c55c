import {
  Anchor,
  Badge,
  Card,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import type { SenderRequestDetail } from '@contract/senders';
import { useTranslation } from 'react-i18next';
import { useFormatDate } from '../../../lib/use-format-date';
import { RequestStatusBadge, SenderStatusBadge } from './status-badge';

/** A request as its owner and its reviewers see it: details, documents and history. */
export function RequestDetail({ request }: { request: SenderRequestDetail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Group gap="sm" align="center">
        <Title order={1} ff="monospace">
          {request.name}
        </Title>
        <RequestStatusBadge status={request.status} />
        {request.sender ? <SenderStatusBadge status={request.sender.status} /> : null}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('senders.detail.details')}
            </Title>
            <Text size="sm">
              <Text span fw={600}>
                {t('senders.fields.purpose')}:
              </Text>{' '}
              {t(`senders.purpose.${request.purpose}`)}
            </Text>
            <Text size="sm">
              <Text span fw={600}>
                {t('senders.fields.registrationNumber')}:
              </Text>{' '}
              {request.registrationNumber}
            </Text>
            <Text size="sm" fw={600}>
              {t('senders.detail.samples')}
            </Text>
            <List size="sm" spacing={4}>
              {request.sampleMessages.map((sample, i) => (
                <List.Item key={i}>{sample}</List.Item>
              ))}
            </List>
          </Stack>
        </Card>
        <Documents request={request} />
      </SimpleGrid>
      <History request={request} />
    </Stack>
  );
}

function Documents({ request }: { request: SenderRequestDetail }) {
  const { t } = useTranslation();
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('senders.detail.documents')}
        </Title>
        <List size="sm" spacing={6} aria-label={t('senders.detail.documents')}>
          {request.documents.map((document) => (
            <List.Item key={document.id}>
              {/* A plain link: the server's `attachment` answer makes it a download. */}
              <Anchor href={document.url}>{document.fileName}</Anchor>{' '}
              <Badge size="xs" variant="outline">
                {document.contentType.split('/')[1]}
              </Badge>{' '}
              <Text span size="xs" c="dimmed">
                {formatSize(document.sizeBytes)}
              </Text>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Card>
  );
}

function History({ request }: { request: SenderRequestDetail }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="md">
        {t('senders.detail.history')}
      </Title>
      <Timeline active={request.history.length - 1} bulletSize={14} lineWidth={2}>
        {request.history.map((step) => (
          <Timeline.Item key={step.id} title={t(`senders.step.${step.step}`)}>
            <Text size="xs" c="dimmed">
              {formatDate(step.at)}
              {step.actor ? ` · ${step.actor.name ?? `#${step.actor.id}`}` : ''}
            </Text>
            {step.note ? (
              <Text size="sm" mt={4} data-testid="review-note">
                {t('senders.detail.note')}: {step.note}
              </Text>
            ) : null}
          </Timeline.Item>
        ))}
      </Timeline>
    </Card>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
