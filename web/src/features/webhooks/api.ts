import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookBody, UpdateWebhookBody } from '@contract/webhooks';
import { call } from '../../lib/api-client';

const webhooksKey = ['webhooks'] as const;
const deliveriesKey = (endpointUid: string) => ['webhooks', endpointUid, 'deliveries'] as const;

/** Deliveries a page of the deliveries table holds. */
export const DELIVERY_PAGE_SIZE = 25;
/** How often the deliveries are read again while one of them is still pending. */
const PENDING_POLL_MS = 5_000;

/** The account's endpoints, and every event type with what it reports. */
export function useWebhooks() {
  return useQuery({
    queryKey: webhooksKey,
    queryFn: ({ signal }) => call('GET /webhooks', { signal }),
  });
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => call('POST /webhooks', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointUid, body }: { endpointUid: string; body: UpdateWebhookBody }) =>
      call('PATCH /webhooks/:endpointUid', { params: { endpointUid }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointUid: string) =>
      call('POST /webhooks/:endpointUid/rotate-secret', { params: { endpointUid } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** The secret, read when asked for and never kept in the query cache. */
export function useRevealWebhookSecret() {
  return useMutation({
    mutationFn: (endpointUid: string) =>
      call('GET /webhooks/:endpointUid/secret', { params: { endpointUid } }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointUid: string) =>
      call('DELETE /webhooks/:endpointUid', { params: { endpointUid } }),
    onSuccess: (_answer, endpointUid) => {
      queryClient.removeQueries({ queryKey: deliveriesKey(endpointUid) });
      return queryClient.invalidateQueries({ queryKey: webhooksKey, exact: true });
    },
  });
}

/** A `webhook.test` event to one endpoint: its delivery joins the endpoint's list. */
export function useSendTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointUid: string) =>
      call('POST /webhooks/:endpointUid/test', { params: { endpointUid } }),
    onSuccess: (_answer, endpointUid) =>
      queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointUid) }),
  });
}

/**
 * An endpoint's deliveries, newest first, a page at a time (`before` the last one shown). While
 * one of them is pending they are read again every few seconds, so an attempt shows by itself.
 */
export function useWebhookDeliveries(endpointUid: string) {
  return useInfiniteQuery({
    queryKey: deliveriesKey(endpointUid),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam, signal }) =>
      call('GET /webhooks/:endpointUid/deliveries', {
        params: { endpointUid },
        query: { limit: DELIVERY_PAGE_SIZE, before: pageParam },
        signal,
      }),
    getNextPageParam: (last) =>
      last.data.length === DELIVERY_PAGE_SIZE ? last.data.at(-1)?.id : undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.data.some((d) => d.state === 'pending'))
        ? PENDING_POLL_MS
        : false,
    retry: false,
  });
}

export function useResendWebhookDelivery(endpointUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) =>
      call('POST /webhooks/:endpointUid/deliveries/:deliveryId/resend', {
        params: { endpointUid, deliveryId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointUid) }),
  });
}
