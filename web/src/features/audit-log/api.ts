import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api-client';

const PAGE_SIZE = 50;

export interface AuditFilters {
  /** One action or a family (`session.`); empty: every action. */
  readonly action: string;
  /** ISO instants; empty: unbounded. */
  readonly from: string;
  readonly to: string;
  /** Admins only: one account's events; empty: every account's. */
  readonly accountId: string;
}

/**
 * The audit log, newest first, a page at a time by cursor: an owner's own account's
 * (`/audit-events`), or an admin's view of every account (`/admin/audit-events`).
 */
export function useAuditLog(scope: 'owner' | 'admin', filters: AuditFilters, enabled = true) {
  return useInfiniteQuery({
    queryKey: ['audit-events', scope, filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = {
        action: filters.action || undefined,
        from: filters.from || undefined,
        to: filters.to || undefined,
        cursor: pageParam,
        limit: PAGE_SIZE,
      };
      return scope === 'admin'
        ? call('GET /admin/audit-events', {
            query: { ...query, accountId: Number(filters.accountId) || undefined },
            signal,
          })
        : call('GET /audit-events', { query, signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
}

/** One account's name, for the account filter when the page opens on it (`?accountId=`). */
export function useAccountName(accountId: string) {
  return useQuery({
    queryKey: ['admin', 'account', Number(accountId)],
    queryFn: ({ signal }) =>
      call('GET /admin/accounts/:accountId', { params: { accountId: Number(accountId) }, signal }),
    enabled: accountId !== '',
    select: (account) => account.name,
    retry: false,
  });
}
