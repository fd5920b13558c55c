import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { accountListQuerySchema } from '@contract/accounts';
import type { AdminSenderRow } from '@contract/senders';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '../../../components/ui/api-error-alert';
import { useSearchTerm } from '../../../lib/use-search-term';
import { useAccounts } from '../../admin-accounts';
import { useSenderChange } from '../api/admin-senders';

interface Choice {
  readonly value: string;
  readonly label: string;
}

/** Shares an approved sender with an account found by name (not its own, not one it has). */
export function ShareSenderModal({
  sender,
  onClose,
}: {
  sender: AdminSenderRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Choice | null>(null);
  // Once an account is chosen the box shows its label: that is not a search.
  const showsChoice = chosen !== null && search === chosen.label;
  const found = useSearchTerm(accountListQuerySchema.shape.search, search, { delay: 250 });
  const accounts = useAccounts(
    {
      search: chosen && found.term === chosen.label ? '' : (found.term ?? ''),
      page: 1,
      pageSize: 20,
    },
    sender !== null && (showsChoice || found.term !== null),
  );
  const change = useSenderChange();
  const excluded = new Set([
    sender?.account.id,
    ...(sender?.sharedWith.map((account) => account.id) ?? []),
  ]);
  const data: Choice[] = (accounts.data?.data ?? [])
    .filter((account) => !excluded.has(account.id))
    .map((account) => ({ value: String(account.id), label: `${account.name} (#${account.id})` }));
  if (chosen && !data.some((choice) => choice.value === chosen.value)) data.unshift(chosen);

  function close() {
    setSearch('');
    setChosen(null);
    change.reset();
    onClose();
  }

  return (
    <Modal
      opened={sender !== null}
      onClose={close}
      title={sender ? t('senders.all.shareTitle', { name: sender.name }) : ''}
    >
      {sender ? (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('senders.all.shareHint', { account: sender.account.name })}
          </Text>
          <Select
            label={t('senders.all.shareAccount')}
            placeholder={t('senders.all.shareAccountPlaceholder')}
            searchable
            data={data}
            value={chosen?.value ?? null}
            onChange={(value, option) => setChosen(value && option ? option : null)}
            searchValue={search}
            onSearchChange={setSearch}
            error={showsChoice ? undefined : found.error}
            nothingFoundMessage={t('senders.all.noAccountFound')}
            data-autofocus
          />
          <ApiErrorAlert error={change.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('senders.all.cancel')}
            </Button>
            <Button
              disabled={chosen === null}
              loading={change.isPending}
              onClick={() =>
                chosen &&
                change.mutate(
                  { senderId: sender.id, action: 'share', accountId: Number(chosen.value) },
                  { onSuccess: close },
                )
              }
            >
              {t('senders.all.shareConfirm')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
