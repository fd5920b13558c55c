import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewBody } from '@contract/senders';
import { call } from '../../../lib/api-client';
import { changeSender, type SenderChange } from './admin-senders';
import { senderKeys } from './senders';

/** Requests waiting for review (oldest first), or every request. */
export function useReviewQueue(status: 'pending' | 'all') {
  return useQuery({
    queryKey: senderKeys.queue(status),
    queryFn: ({ signal }) => call('GET /admin/sender-requests', { query: { status }, signal }),
  });
}

export function useAdminSenderRequest(id: number) {
  return useQuery({
    queryKey: senderKeys.adminRequest(id),
    queryFn: ({ signal }) =>
      call('GET /admin/sender-requests/:requestId', { params: { requestId: id }, signal }),
  });
}

/** After any admin action the request's detail is the server's answer; lists are refetched. */
function useAdminAction<Input>(id: number, act: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => {
      await act(input);
      return call('GET /admin/sender-requests/:requestId', { params: { requestId: id } });
    },
    onSuccess: (detail) => {
      queryClient.setQueryData(senderKeys.adminRequest(id), detail);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'sender-requests'] });
      void queryClient.invalidateQueries({ queryKey: senderKeys.all });
    },
  });
}

export function useReview(id: number) {
  return useAdminAction(id, (body: ReviewBody) =>
    call('POST /admin/sender-requests/:requestId/review', { params: { requestId: id }, body }),
  );
}

/** Suspends, reinstates, shares or unshares the sender an approved request made. */
export function useRequestSenderChange(requestId: number) {
  return useAdminAction(requestId, (change: SenderChange) => changeSender(change));
}
