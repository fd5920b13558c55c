import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MessageDetail, MessageStatus, RecipientStatus } from '@contract/messages';
import { call, hrefOf } from '../../lib/api-client';

/** Whose messages a page shows: the account's own, or (an admin) any account's. */
export type MessageScope = 'account' | 'admin';

/** Where the API serves a scope's messages, and where the console shows them. */
export function messagesPath(scope: MessageScope): '/admin/messages' | '/messages' {
  return scope === 'admin' ? '/admin/messages' : '/messages';
}

export interface MessageFilters {
  readonly page: number;
  readonly status: MessageStatus | '';
  readonly sender: string;
  /** ISO instants, already in the user's zone, both inclusive; empty: unbounded. */
  readonly from: string;
  readonly to: string;
  readonly search: string;
  /** Admins only: one account; empty: every account. */
  readonly accountId: string;
}

export const MESSAGE_PAGE_SIZE = 20;

export function useMessages(scope: MessageScope, filters: MessageFilters, enabled = true) {
  return useQuery({
    queryKey: ['messages', scope, filters],
    queryFn: ({ signal }) => {
      const query = {
        page: filters.page,
        limit: MESSAGE_PAGE_SIZE,
        status: filters.status || undefined,
        sender: filters.sender || undefined,
        from: filters.from || undefined,
        to: filters.to || undefined,
        search: filters.search || undefined,
      };
      return scope === 'admin'
        ? call('GET /admin/messages', {
            query: { ...query, accountId: Number(filters.accountId) || undefined },
            signal,
          })
        : call('GET /messages', { query, signal });
    },
    placeholderData: (previous) => previous,
    enabled,
  });
}

/** How often a page asks again about a message that can still change. */
const SENDING_POLL_MS = 2_000;
const SCHEDULED_POLL_MS = 30_000;

/**
 * One message, asked again while it can change: every 2 s while it is sent, every 30 s while it
 * waits for its time, never once it is final. Each ask is a conditional GET: the server's
 * ETag and `no-cache` make the browser send If-None-Match, and while nothing moved the answer is
 * a 304 with no body (the browser hands back the copy it has).
 */
export function useMessage(scope: MessageScope, uuid: string) {
  return useQuery({
    queryKey: ['message', scope, uuid],
    queryFn: ({ signal }) => call(`GET ${messagesPath(scope)}/:uuid`, { params: { uuid }, signal }),
    refetchInterval: (query) => pollInterval(query.state.data),
    refetchIntervalInBackground: false,
    retry: false,
  });
}

function pollInterval(message: MessageDetail | undefined): number | false {
  if (!message || message.final) return false;
  return message.status === 'scheduled' ? SCHEDULED_POLL_MS : SENDING_POLL_MS;
}

export interface RecipientFilters {
  readonly status: RecipientStatus | '';
  readonly search: string;
}

/** The key of a message's recipient pages: with `filters`, of one filtered list. */
export function recipientsKey(scope: MessageScope, uuid: string, filters?: RecipientFilters) {
  return filters
    ? ['message-recipients', scope, uuid, filters]
    : ['message-recipients', scope, uuid];
}

/** One page of a message's recipients: the 50 after seq `after` that pass the filters. */
export function fetchRecipientPage(
  scope: MessageScope,
  uuid: string,
  filters: RecipientFilters,
  after: number,
  signal?: AbortSignal,
) {
  return call(`GET ${messagesPath(scope)}/:uuid/recipients`, {
    params: { uuid },
    query: {
      after,
      limit: 50,
      status: filters.status || undefined,
      search: filters.search || undefined,
    },
    signal,
  });
}

/** The recipients a page at a time by cursor (`after`), filtered by status and number. */
export function useRecipients(scope: MessageScope, uuid: string, filters: RecipientFilters) {
  return useInfiniteQuery({
    queryKey: recipientsKey(scope, uuid, filters),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => fetchRecipientPage(scope, uuid, filters, pageParam, signal),
    getNextPageParam: (last) => (last.hasMore ? last.nextCursor : undefined),
    placeholderData: (previous) => previous,
  });
}

/** The CSV export's address: a plain GET the browser downloads itself, never held in memory. */
export function exportHref(
  scope: MessageScope,
  uuid: string,
  status: RecipientStatus | '',
): string {
  return hrefOf(`GET ${messagesPath(scope)}/:uuid/recipients.csv`, {
    params: { uuid },
    query: { status: status || undefined },
  });
}

export function useCancelMessage(uuid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /messages/:uuid/cancel', { params: { uuid } }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['message', 'account', uuid] }),
        client.invalidateQueries({ queryKey: ['messages'] }),
        client.invalidateQueries({ queryKey: ['ledger'] }),
      ]);
    },
  });
}
