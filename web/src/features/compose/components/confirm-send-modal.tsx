import { Alert, Button, Group, Modal, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Estimate } from '@contract/compose';
import { ComposeError } from './compose-error';

/**
 * The dry run's answer, to confirm before sending: valid, invalid, duplicate and blocklisted
 * numbers, those charged, the parts, the cost against the balance, and the time when scheduled.
 */
export function ConfirmSendModal({
  estimate,
  scheduledAt,
  sending,
  error,
  number,
  onBack,
  onConfirm,
}: {
  estimate: Estimate | null;
  /** The wall time and zone of a scheduled send, as typed; null: sent now. */
  scheduledAt: string | null;
  sending: boolean;
  error: unknown;
  number: (n: number) => string;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={estimate !== null} onClose={onBack} title={t('compose.confirmTitle')} size="lg">
      {estimate ? (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            <Figure label={t('compose.counts.valid')} value={number(estimate.recipients.valid)} />
            <Figure
              label={t('compose.counts.invalid')}
              value={number(estimate.recipients.invalid)}
            />
            <Figure
              label={t('compose.counts.duplicates')}
              value={number(estimate.recipients.duplicates)}
            />
            <Figure
              label={t('compose.counts.blocked')}
              value={number(estimate.recipients.blocked)}
            />
            <Figure
              label={t('compose.counts.charged')}
              value={number(estimate.recipients.charged)}
            />
            <Figure label={t('compose.counts.parts')} value={number(estimate.parts)} />
          </SimpleGrid>
          <Table>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th>{t('compose.counts.cost')}</Table.Th>
                <Table.Td data-testid="confirm-cost">{number(estimate.cost)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('compose.counts.balance')}</Table.Th>
                <Table.Td>{number(estimate.balance)}</Table.Td>
              </Table.Tr>
              {scheduledAt ? (
                <Table.Tr>
                  <Table.Th>{t('compose.laterAt')}</Table.Th>
                  <Table.Td>{scheduledAt}</Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
          {!estimate.sufficientCredits ? <Alert color="red">{t('compose.notEnough')}</Alert> : null}
          <ComposeError error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onBack}>
              {t('compose.back')}
            </Button>
            <Button onClick={onConfirm} loading={sending} disabled={!estimate.sufficientCredits}>
              {scheduledAt ? t('compose.confirmSchedule') : t('compose.confirmSend')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </div>
  );
}
