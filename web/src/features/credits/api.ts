import { useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../lib/api-client';

const PAGE_SIZE = 25;

/** Whose ledger: the owner's own account, or (an admin's view) one account by id. */
export type LedgerScope = { readonly own: true } | { readonly accountId: number };

/** The query key of a scope's ledger; every ledger is under `['ledger']`. */
export function ledgerKey(scope: LedgerScope) {
  return ['ledger', 'own' in scope ? 'own' : scope.accountId] as const;
}

/** The balance and the ledger, newest first, a page at a time by cursor. */
export function useLedger(scope: LedgerScope) {
  return useInfiniteQuery({
    queryKey: ledgerKey(scope),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = { cursor: pageParam, limit: PAGE_SIZE };
      return 'own' in scope
        ? call('GET /credits', { query, signal })
        : call('GET /admin/accounts/:accountId/ledger', {
            params: { accountId: scope.accountId },
            query,
            signal,
          });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
