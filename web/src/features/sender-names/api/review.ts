import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  senderRequestDetailSchema,
  senderRequestListSchema,
  type ReviewBody,
} from '@contract/senders';
import { api } from '../../../lib/api-client';
import { senderKeys } from './senders';

/** Requests waiting for review (oldest first), or every request. */
export function useReviewQueue(status: 'pending' | 'all') {
  return useQuery({
    queryKey: senderKeys.queue(status),
    queryFn: ({ signal }) =>
      api.get('/admin/sender-requests', {
        query: { status },
        schema: senderRequestListSchema,
        signal,
      }),
  });
}

export function useAdminSenderRequest(id: number) {
  return useQuery({
    queryKey: senderKeys.adminRequest(id),
    queryFn: ({ signal }) =>
      api.get(`/admin/sender-requests/${id}`, { schema: senderRequestDetailSchema, signal }),
  });
}

/** After any admin action the request's detail is the server's answer; lists are refetched. */
function useAdminAction<Input>(id: number, call: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => {
      await call(input);
      return api.get(`/admin/sender-requests/${id}`, { schema: senderRequestDetailSchema });
    },
    onSuccess: (detail) => {
      queryClient.setQueryData(senderKeys.adminRequest(id), detail);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'sender-requests'] });
    },
  });
}

export function useReview(id: number) {
  return useAdminAction(id, (body: ReviewBody) =>
    api.post(`/admin/sender-requests/${id}/review`, { body }),
  );
}

export function useSenderStatusChange(requestId: number) {
  return useAdminAction(
    requestId,
    ({ senderId, action }: { senderId: number; action: 'suspend' | 'reinstate' }) =>
      api.post(`/admin/senders/${senderId}/${action}`),
  );
}

export function useShareSender(requestId: number) {
  return useAdminAction(
    requestId,
    ({ senderId, accountId }: { senderId: number; accountId: number }) =>
      api.post(`/admin/senders/${senderId}/shares`, { body: { accountId } }),
  );
}

export function useUnshareSender(requestId: number) {
  return useAdminAction(
    requestId,
    ({ senderId, accountId }: { senderId: number; accountId: number }) =>
      api.delete(`/admin/senders/${senderId}/shares/${accountId}`),
  );
}
