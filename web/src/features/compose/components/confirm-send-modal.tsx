import { Alert, Button, Group, Modal, Stack, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Estimate } from '@contract/compose';
import { RecipientTally } from '../../../components/ui/recipient-tally';
import { useFormatNumber } from '../../../lib/use-format-number';
import { ComposeError } from './compose-error';

/**
 * The dry run's answer, to confirm before sending: what became of the numbers (the same figures
 * the message page shows once sent), the parts, the cost against the balance, and the time when
 * scheduled.
 */
export function ConfirmSendModal({
  estimate,
  scheduledAt,
  sending,
  error,
  onBack,
  onConfirm,
}: {
  estimate: Estimate | null;
  /** The wall time and zone of a scheduled send, as typed; null: sent now. */
  scheduledAt: string | null;
  sending: boolean;
  error: unknown;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  return (
    <Modal opened={estimate !== null} onClose={onBack} title={t('compose.confirmTitle')} size="lg">
      {estimate ? (
        <Stack gap="md">
          <RecipientTally tally={estimate.recipients} />
          <Table>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th>{t('compose.counts.parts')}</Table.Th>
                <Table.Td>{number(estimate.parts)}</Table.Td>
              </Table.Tr>
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
