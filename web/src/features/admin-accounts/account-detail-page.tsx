import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { StatCard } from '../../components/ui/stat-card';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  accountSettingsBodySchema,
  type AccountDetail,
  type AccountSettingsBody,
} from '@contract/accounts';
import { adjustCreditsBodySchema, type AdjustCreditsBody } from '@contract/credits';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { StatusPage } from '../../components/ui/status-page';
import { usePageTitle } from '../../lib/use-page-title';
import { LedgerTable, useLedger } from '../credits';
import { AccountPeopleCard } from '../people';
import { useAccount, useAdjustCredits, useSetStatus, useUpdateSettings } from './api';
import { AccountStatusBadge } from './status-badge';
import { useFormatNumber } from '../../lib/use-format-number';

/** One account as an admin manages it: balance, settings, status, senders and ledger. */
export function AccountDetailPage() {
  const { t } = useTranslation();
  const accountId = Number(useParams().accountId);
  const valid = Number.isSafeInteger(accountId) && accountId > 0;
  const account = useAccount(valid ? accountId : 0);
  usePageTitle(account.data?.name ?? t('areas.adminAccounts.title'));
  if (!valid) return <StatusPage kind="notFound" />;
  if (account.error) return <ApiErrorAlert error={account.error} />;
  if (!account.data) return <Text c="dimmed">{t('app.loading')}</Text>;
  return <AccountDetailView account={account.data} />;
}

function AccountDetailView({ account }: { account: AccountDetail }) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  const ledger = useLedger({ accountId: account.id });
  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to="/admin/accounts" size="sm">
          {t('accounts.back')}
        </Anchor>
        <Group gap="sm" mt="xs">
          <Title order={1}>{account.name}</Title>
          <AccountStatusBadge status={account.status} />
        </Group>
        <Group gap="md">
          <Text c="dimmed">{t('accounts.idLine', { id: String(account.id) })}</Text>
          <Anchor component={Link} to={`/admin/messages?accountId=${account.id}`} size="sm">
            {t('accounts.messagesLink')}
          </Anchor>
        </Group>
      </div>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <StatCard
          label={t('accounts.balance')}
          value={number(account.balance)}
          testId="account-balance"
        />
        <StatCard label={t('accounts.pricePerPart')} value={number(account.pricePerPart)} />
        <StatCard
          label={t('accounts.rateLimit')}
          value={
            account.rateLimitRequests === null
              ? t('accounts.rateLimitDefault')
              : number(account.rateLimitRequests)
          }
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <AdjustCreditsCard account={account} />
        <SettingsCard account={account} />
      </SimpleGrid>
      <StatusCard account={account} />
      <AccountPeopleCard accountId={account.id} />
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('accounts.senders')}
        </Title>
        {account.senders.length === 0 ? (
          <Text>{t('accounts.noSenders')}</Text>
        ) : (
          <Table aria-label={t('accounts.senders')}>
            <Table.Tbody>
              {account.senders.map((sender) => (
                <Table.Tr key={sender.name}>
                  <Table.Td>{sender.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={sender.status === 'approved' ? 'teal' : 'gray'}>
                      {sender.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{sender.shared ? t('accounts.shared') : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <Title order={2} size="h3">
        {t('credits.ledger')}
      </Title>
      <LedgerTable ledger={ledger} messagesPath="/admin/messages" />
    </Stack>
  );
}

function AdjustCreditsCard({ account }: { account: AccountDetail }) {
  const { t } = useTranslation();
  const adjust = useAdjustCredits(account.id);
  const form = useForm<AdjustCreditsBody>({
    resolver: zodResolver(adjustCreditsBodySchema),
    defaultValues: { kind: 'grant', amount: 0, note: '' },
  });
  const submit = form.handleSubmit((body) =>
    adjust.mutate(body, {
      onSuccess: () => {
        form.reset();
        notifications.show({ color: 'teal', message: t('accounts.adjusted') });
      },
    }),
  );
  const { errors } = form.formState;
  return (
    <Card withBorder component="section" aria-labelledby="adjust-credits">
      <Title order={2} size="h4" mb="sm" id="adjust-credits">
        {t('accounts.adjustTitle')}
      </Title>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <ApiErrorAlert error={adjust.error} />
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <SegmentedControl
                aria-label={t('accounts.adjustKind')}
                value={field.value}
                onChange={(value) => field.onChange(value)}
                data={[
                  { value: 'grant', label: t('accounts.grant') },
                  { value: 'deduct', label: t('accounts.deduct') },
                ]}
              />
            )}
          />
          <Controller
            control={form.control}
            name="amount"
            render={({ field }) => (
              <NumberInput
                label={t('accounts.amount')}
                required
                min={1}
                allowDecimal={false}
                allowNegative={false}
                thousandSeparator=","
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                error={errors.amount ? t('accounts.amountInvalid') : undefined}
              />
            )}
          />
          <Textarea
            label={t('accounts.note')}
            description={t('accounts.noteHint')}
            required
            autosize
            minRows={2}
            error={errors.note ? t('accounts.noteRequired') : undefined}
            {...form.register('note')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={adjust.isPending}>
              {t('accounts.apply')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function SettingsCard({ account }: { account: AccountDetail }) {
  const { t } = useTranslation();
  const update = useUpdateSettings(account.id);
  const form = useForm<AccountSettingsBody>({
    resolver: zodResolver(accountSettingsBodySchema),
    values: {
      pricePerPart: account.pricePerPart,
      rateLimitRequests: account.rateLimitRequests,
      lowBalanceThreshold: account.lowBalanceThreshold,
    },
  });
  const submit = form.handleSubmit((body) =>
    update.mutate(body, {
      onSuccess: () => notifications.show({ color: 'teal', message: t('accounts.saved') }),
    }),
  );
  const { errors } = form.formState;
  return (
    <Card withBorder component="section" aria-labelledby="account-settings">
      <Title order={2} size="h4" mb="sm" id="account-settings">
        {t('accounts.settingsTitle')}
      </Title>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <ApiErrorAlert error={update.error} />
          <Controller
            control={form.control}
            name="pricePerPart"
            render={({ field }) => (
              <NumberInput
                label={t('accounts.pricePerPart')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                value={field.value ?? 0}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                error={errors.pricePerPart ? t('accounts.wholeNumber') : undefined}
              />
            )}
          />
          <Controller
            control={form.control}
            name="rateLimitRequests"
            render={({ field }) => (
              <Stack gap={6}>
                <Switch
                  label={t('accounts.rateLimitUseDefault')}
                  checked={field.value === null}
                  onChange={(event) => field.onChange(event.currentTarget.checked ? null : 6000)}
                />
                {field.value !== null ? (
                  <NumberInput
                    label={t('accounts.rateLimit')}
                    description={t('accounts.rateLimitHint')}
                    min={1}
                    allowDecimal={false}
                    allowNegative={false}
                    thousandSeparator=","
                    value={field.value ?? ''}
                    onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                    error={errors.rateLimitRequests ? t('accounts.amountInvalid') : undefined}
                  />
                ) : null}
              </Stack>
            )}
          />
          <Controller
            control={form.control}
            name="lowBalanceThreshold"
            render={({ field }) => (
              <NumberInput
                label={t('accounts.lowBalanceThreshold')}
                description={t('accounts.lowBalanceThresholdHint')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                thousandSeparator=","
                value={field.value ?? 0}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                error={errors.lowBalanceThreshold ? t('accounts.wholeNumber') : undefined}
              />
            )}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              {t('accounts.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function StatusCard({ account }: { account: AccountDetail }) {
  const { t } = useTranslation();
  const setStatus = useSetStatus(account.id);
  const [confirming, setConfirming] = useState(false);
  const suspended = account.status === 'suspended';
  const close = () => {
    setStatus.reset();
    setConfirming(false);
  };
  return (
    <Card withBorder component="section" aria-labelledby="account-status">
      <Group justify="space-between">
        <div>
          <Title order={2} size="h4" id="account-status">
            {t('accounts.statusTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {suspended ? t('accounts.suspendedHint') : t('accounts.activeHint')}
          </Text>
        </div>
        <Button
          color={suspended ? 'teal' : 'red'}
          variant={suspended ? 'filled' : 'light'}
          onClick={() => setConfirming(true)}
        >
          {suspended ? t('accounts.reactivate') : t('accounts.suspend')}
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={close}
        title={suspended ? t('accounts.reactivateTitle') : t('accounts.suspendTitle')}
      >
        <Stack gap="md">
          <ApiErrorAlert error={setStatus.error} />
          <Text>
            {suspended
              ? t('accounts.reactivateConfirm', { name: account.name })
              : t('accounts.suspendConfirm', { name: account.name })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('accounts.cancel')}
            </Button>
            <Button
              color={suspended ? 'teal' : 'red'}
              loading={setStatus.isPending}
              onClick={() =>
                setStatus.mutate(suspended ? 'active' : 'suspended', { onSuccess: close })
              }
            >
              {suspended ? t('accounts.reactivate') : t('accounts.suspend')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
