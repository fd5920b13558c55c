import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  CloseButton,
  Group,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import type { AdminSenderRow } from '@contract/senders';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useSenderChange } from '../api/admin-senders';
import { ShareSenderModal } from './share-sender-modal';
import { SenderStatusBadge } from './status-badge';

type Change = ReturnType<typeof useSenderChange>;

/**
 * Senders of every account as an admin manages them: whose each is, its status, the accounts
 * it is shared with (each share can be taken back), suspend or reinstate, and share. A table on
 * a wide screen; at phone width a card each, so the actions are never scrolled out of sight.
 */
export function ManagedSenderTable({ senders }: { senders: readonly AdminSenderRow[] }) {
  const { t } = useTranslation();
  const change = useSenderChange();
  const [sharing, setSharing] = useState<AdminSenderRow | null>(null);
  if (senders.length === 0) return <Text c="dimmed">{t('senders.all.none')}</Text>;
  return (
    <Stack gap="sm">
      <ApiErrorAlert error={change.error} />
      <Box visibleFrom="md">
        <Table striped aria-label={t('areas.adminSenders.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('senders.fields.name')}</Table.Th>
              <Table.Th>{t('senders.all.account')}</Table.Th>
              <Table.Th>{t('senders.fields.status')}</Table.Th>
              <Table.Th>{t('senders.manage.sharedWith')}</Table.Th>
              <Table.Th>{t('senders.all.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {senders.map((sender) => (
              <Table.Tr key={sender.id}>
                <Table.Td>
                  <SenderName sender={sender} />
                </Table.Td>
                <Table.Td>
                  <AccountLink sender={sender} />
                </Table.Td>
                <Table.Td>
                  <SenderStatusBadge status={sender.status} />
                </Table.Td>
                <Table.Td>
                  <SharedWith sender={sender} change={change} />
                </Table.Td>
                <Table.Td>
                  <Actions sender={sender} change={change} onShare={() => setSharing(sender)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Stack gap="sm" hiddenFrom="md">
        {senders.map((sender) => (
          <Card
            key={sender.id}
            withBorder
            padding="sm"
            component="section"
            aria-label={sender.name}
          >
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap">
                <SenderName sender={sender} />
                <SenderStatusBadge status={sender.status} />
              </Group>
              <AccountLink sender={sender} />
              <Text size="sm" fw={600}>
                {t('senders.manage.sharedWith')}
              </Text>
              <SharedWith sender={sender} change={change} />
              <Actions sender={sender} change={change} onShare={() => setSharing(sender)} />
            </Stack>
          </Card>
        ))}
      </Stack>
      <ShareSenderModal sender={sharing} onClose={() => setSharing(null)} />
    </Stack>
  );
}

function SenderName({ sender }: { sender: AdminSenderRow }) {
  return (
    <Text ff="monospace" fw={600}>
      {sender.name}
    </Text>
  );
}

function AccountLink({ sender }: { sender: AdminSenderRow }) {
  return (
    <Anchor component={Link} to={`/admin/accounts/${sender.account.id}`}>
      {sender.account.name}
    </Anchor>
  );
}

function SharedWith({ sender, change }: { sender: AdminSenderRow; change: Change }) {
  const { t } = useTranslation();
  if (sender.sharedWith.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('senders.all.notShared')}
      </Text>
    );
  }
  return (
    <Group gap={6}>
      {sender.sharedWith.map((account) => (
        <Badge
          key={account.id}
          variant="outline"
          color="gray"
          tt="none"
          pr={3}
          rightSection={
            <CloseButton
              size="xs"
              aria-label={t('senders.all.unshareLabel', {
                name: sender.name,
                account: account.name,
              })}
              disabled={change.isPending}
              onClick={() =>
                change.mutate({ senderId: sender.id, action: 'unshare', accountId: account.id })
              }
            />
          }
        >
          {account.name}
        </Badge>
      ))}
    </Group>
  );
}

function Actions({
  sender,
  change,
  onShare,
}: {
  sender: AdminSenderRow;
  change: Change;
  onShare: () => void;
}) {
  const { t } = useTranslation();
  if (sender.status !== 'approved' && sender.status !== 'suspended') return null;
  const action = sender.status === 'approved' ? 'suspend' : 'reinstate';
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant={action === 'suspend' ? 'light' : 'filled'}
        color={action === 'suspend' ? 'red' : undefined}
        loading={change.isPending && change.variables?.senderId === sender.id}
        aria-label={t(`senders.all.${action}Label`, { name: sender.name })}
        onClick={() => change.mutate({ senderId: sender.id, action })}
      >
        {t(`senders.manage.${action}`)}
      </Button>
      {sender.status === 'approved' ? (
        <Button
          size="xs"
          variant="light"
          aria-label={t('senders.all.shareLabel', { name: sender.name })}
          onClick={onShare}
        >
          {t('senders.all.share')}
        </Button>
      ) : null}
    </Group>
  );
}
