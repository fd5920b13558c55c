import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Button,
  Group,
  Modal,
  NumberInput,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { accountListQuerySchema, createAccountBodySchema } from '@contract/accounts';
import { inviteBodySchema } from '@contract/people';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { usePageTitle } from '../../lib/use-page-title';
import { useSearchTerm } from '../../lib/use-search-term';
import { inviteOwner } from '../people';
import { useAccounts, useCreateAccount } from './api';
import { AccountStatusBadge } from './status-badge';
import { useFormatNumber } from '../../lib/use-format-number';

const PAGE_SIZE = 25;

/** A new account, and (optionally) the email of its owner, invited right after. */
const createAccountFormSchema = createAccountBodySchema.extend({
  ownerEmail: z.union([z.literal(''), inviteBodySchema.shape.email]),
});
type CreateAccountForm = z.input<typeof createAccountFormSchema>;

/** Every customer account, found by name, with balance and status; create one. */
export function AccountsPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.adminAccounts.title'));
  const [search, setSearch] = useState('');
  const found = useSearchTerm(accountListQuerySchema.shape.search, search, { delay: 250 });
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const accounts = useAccounts(
    { search: found.term ?? '', page, pageSize: PAGE_SIZE },
    found.term !== null,
  );
  const number = useFormatNumber();
  const pages = accounts.data ? Math.max(1, Math.ceil(accounts.data.total / PAGE_SIZE)) : 1;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t('areas.adminAccounts.title')}</Title>
          <Text c="dimmed" mt="xs">
            {t('areas.adminAccounts.summary')}
          </Text>
        </div>
        <Button onClick={() => setCreating(true)}>{t('accounts.create')}</Button>
      </Group>
      <TextInput
        label={t('accounts.search')}
        type="search"
        value={search}
        error={found.error}
        maw={360}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
      />
      <ApiErrorAlert error={accounts.error} />
      {accounts.data && accounts.data.data.length === 0 ? <Text>{t('accounts.none')}</Text> : null}
      {accounts.data && accounts.data.data.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="sm" aria-label={t('accounts.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('accounts.id')}</Table.Th>
                <Table.Th>{t('accounts.name')}</Table.Th>
                <Table.Th ta="right">{t('accounts.balance')}</Table.Th>
                <Table.Th ta="right">{t('accounts.pricePerPart')}</Table.Th>
                <Table.Th>{t('accounts.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accounts.data.data.map((account) => (
                <Table.Tr key={account.id}>
                  <Table.Td>{account.id}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/admin/accounts/${account.id}`}>
                      {account.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{number(account.balance)}</Table.Td>
                  <Table.Td ta="right">{number(account.pricePerPart)}</Table.Td>
                  <Table.Td>
                    <AccountStatusBadge status={account.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`accounts.pager.${control}`) })}
        />
      ) : null}
      <CreateAccountModal opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}

function CreateAccountModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateAccount();
  const form = useForm<CreateAccountForm>({
    resolver: zodResolver(createAccountFormSchema),
    defaultValues: { name: '', credits: 0, pricePerPart: 1, ownerEmail: '' },
  });
  const close = () => {
    form.reset();
    create.reset();
    onClose();
  };
  const submit = form.handleSubmit(({ ownerEmail, ...body }) =>
    create.mutate(body, {
      onSuccess: async (account) => {
        close();
        // Right after creating it, its owner is invited (a failure shows on the account page,
        // where the invitation can be sent again).
        if (ownerEmail) {
          await inviteOwner(account.id, ownerEmail).then(
            () =>
              notifications.show({
                color: 'teal',
                message: t('accounts.ownerInvited', { email: ownerEmail }),
              }),
            (error: unknown) =>
              notifications.show({
                color: 'red',
                message: error instanceof Error ? error.message : String(error),
              }),
          );
        }
        void navigate(`/admin/accounts/${account.id}`);
      },
    }),
  );
  const { errors } = form.formState;
  return (
    <Modal opened={opened} onClose={close} title={t('accounts.createTitle')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <ApiErrorAlert error={create.error} />
          <TextInput
            label={t('accounts.name')}
            required
            data-autofocus
            error={errors.name ? t('accounts.nameInvalid') : undefined}
            {...form.register('name')}
          />
          <Controller
            control={form.control}
            name="credits"
            render={({ field }) => (
              <NumberInput
                label={t('accounts.openingCredits')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                thousandSeparator=","
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                error={errors.credits ? t('accounts.wholeNumber') : undefined}
              />
            )}
          />
          <Controller
            control={form.control}
            name="pricePerPart"
            render={({ field }) => (
              <NumberInput
                label={t('accounts.pricePerPart')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : 0)}
                error={errors.pricePerPart ? t('accounts.wholeNumber') : undefined}
              />
            )}
          />
          <TextInput
            label={t('accounts.ownerEmail')}
            description={t('accounts.ownerEmailHint')}
            type="email"
            autoComplete="off"
            error={errors.ownerEmail ? t('people.emailInvalid') : undefined}
            {...form.register('ownerEmail')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('accounts.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('accounts.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
