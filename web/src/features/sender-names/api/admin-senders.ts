import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SenderStatus } from '@contract/senders';
import { call } from '../../../lib/api-client';
import { senderKeys } from './senders';

export interface SenderFilters {
  /** A part of the name; empty: every name. */
  readonly search: string;
  /** One status; empty: every status. */
  readonly status: SenderStatus | '';
  readonly offset: number;
  readonly limit: number;
}

/** Every sender of the platform, oldest first, with its account and shares: the admins' list. */
export function useAllSenders(filters: SenderFilters, enabled = true) {
  return useQuery({
    queryKey: [...senderKeys.all, filters],
    queryFn: ({ signal }) =>
      call('GET /admin/senders', {
        query: {
          search: filters.search || undefined,
          status: filters.status || undefined,
          offset: filters.offset,
          limit: filters.limit,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** What an admin does to a sender. */
export type SenderChange =
  | { readonly senderId: number; readonly action: 'suspend' | 'reinstate' }
  | { readonly senderId: number; readonly action: 'share' | 'unshare'; readonly accountId: number };

export function changeSender(change: SenderChange) {
  const params = { senderId: change.senderId };
  switch (change.action) {
    case 'suspend':
      return call('POST /admin/senders/:senderId/suspend', { params });
    case 'reinstate':
      return call('POST /admin/senders/:senderId/reinstate', { params });
    case 'share':
      return call('POST /admin/senders/:senderId/shares', {
        params,
        body: { accountId: change.accountId },
      });
    case 'unshare':
      return call('DELETE /admin/senders/:senderId/shares/:accountId', {
        params: { ...params, accountId: change.accountId },
      });
  }
}

/**
 * Suspends, reinstates, shares or unshares a sender from the admins' list: the list, the review
 * pages and the accounts' pages (which list their senders) are read again.
 */
export function useSenderChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeSender,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: senderKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'sender-requests'] }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'account'] }),
      ]),
  });
}
