import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSettingsBody, AccountStatus, CreateAccountBody } from '@contract/accounts';
import type { AdjustCreditsBody } from '@contract/credits';
import { call } from '../../lib/api-client';
import { ledgerKey } from '../credits';

export function useAccounts(
  query: { search?: string; page: number; pageSize: number },
  enabled = true,
) {
  return useQuery({
    queryKey: ['admin', 'accounts', query],
    queryFn: ({ signal }) => call('GET /admin/accounts', { query, signal }),
    placeholderData: (previous) => previous,
    enabled,
  });
}

export function useAccount(accountId: number) {
  return useQuery({
    queryKey: ['admin', 'account', accountId],
    queryFn: ({ signal }) =>
      call('GET /admin/accounts/:accountId', { params: { accountId }, signal }),
  });
}

/** After any change of an account: its detail, the list and its ledger are stale. */
function useAccountChanged() {
  const queryClient = useQueryClient();
  return (accountId: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin', 'account', accountId] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'accounts'] }),
      queryClient.invalidateQueries({ queryKey: ledgerKey({ accountId }) }),
    ]);
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccountBody) => call('POST /admin/accounts', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'accounts'] }),
  });
}

export function useUpdateSettings(accountId: number) {
  const changed = useAccountChanged();
  return useMutation({
    mutationFn: (body: AccountSettingsBody) =>
      call('PATCH /admin/accounts/:accountId', { params: { accountId }, body }),
    onSuccess: () => changed(accountId),
  });
}

export function useAdjustCredits(accountId: number) {
  const changed = useAccountChanged();
  return useMutation({
    mutationFn: (body: AdjustCreditsBody) =>
      call('POST /admin/accounts/:accountId/credits', { params: { accountId }, body }),
    onSuccess: () => changed(accountId),
  });
}

export function useSetStatus(accountId: number) {
  const changed = useAccountChanged();
  return useMutation({
    mutationFn: (status: AccountStatus) =>
      call('PUT /admin/accounts/:accountId/status', { params: { accountId }, body: { status } }),
    onSuccess: () => changed(accountId),
  });
}
