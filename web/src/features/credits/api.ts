import { useInfiniteQuery } from '@tanstack/react-query';
import { creditsSchema } from '@contract/credits';
import { api } from '../../lib/api-client';

const PAGE_SIZE = 25;

/**
 * The balance and the ledger, newest first, a page at a time by cursor. `path` is the owner's
 * own (`/credits`) or an admin's view of an account (`/admin/accounts/:id/ledger`).
 */
export function useLedger(path: string) {
  return useInfiniteQuery({
    queryKey: ['ledger', path],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get(path, {
        schema: creditsSchema,
        query: { cursor: pageParam, limit: PAGE_SIZE },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
