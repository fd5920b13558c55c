import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  accountDetailSchema,
  accountListSchema,
  accountSchema,
  type AccountSettingsBody,
  type AccountStatus,
  type CreateAccountBody,
} from '@contract/accounts';
import { balanceSchema, type AdjustCreditsBody } from '@contract/credits';
import { api } from '../../lib/api-client';

export function useAccounts(query: { search?: string; page: number; pageSize: number }) {
  return useQuery({
    queryKey: ['admin', 'accounts', query],
    queryFn: ({ signal }) =>
      api.get('/admin/accounts', {
        schema: accountListSchema,
        query: { search: query.search || undefined, page: query.page, pageSize: query.pageSize },
        signal,
      }),
    placeholderData: (previous) => previous,
  });
}

export function useAccount(accountId: number) {
  return useQuery({
    queryKey: ['admin', 'account', accountId],
    queryFn: ({ signal }) =>
      api.get(`/admin/accounts/${accountId}`, { schema: accountDetailSchema, signal }),
  });
}

/** After any change of an account: its detail, the list and its ledger are stale. */
function useAccountChanged() {
  const queryClient = useQueryClient();
  return (accountId: number) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin', 'account', accountId] }),
      queryClient.invalidateQueries({ queryKey: ['admin', 'accounts'] }),
      queryClient.invalidateQueries({
        queryKey: ['ledger', `/admin/accounts/${accountId}/ledger`],
      }),
    ]);
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccountBody) =>
      api.post('/admin/accounts', { body, schema: accountDetailSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'accounts'] }),
  });
}

export function useUpdateSettings(accountId: number) {
  const changed = useAccountChanged();
  return useMutation({
    mutationFn: (body: AccountSettingsBody) =>
      api.patch(`/admin/accounts/${accountId}`, { body, schema: accountSchema }),
    onSuccess: () => changed(accountId),
  });
}

export function useAdjustCredits(accountId: number) {
  const changed = useAccountChanged();
  return useMutation({
    mutationFn: (body: AdjustCreditsBody) =>
      api.post(`/admin/accounts/${accountId}/credits`, { body, schema: balanceSchema }),
    onSuccess: () => changed(accountId),
  });
}

export function useSetStatus(accountId: number) {
  const changed = useAccountChanged();
  return useMutation({
    mutationFn: (status: AccountStatus) =>
      api.put(`/admin/accounts/${accountId}/status`, { body: { status }, schema: accountSchema }),
    onSuccess: () => changed(accountId),
  });
}
