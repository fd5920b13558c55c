import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResubmitForm, SenderRequestForm } from '@contract/senders';
import { call } from '../../../lib/api-client';
import { senderKeys } from './senders';

export function useSenderRequests() {
  return useQuery({
    queryKey: senderKeys.requests,
    queryFn: ({ signal }) => call('GET /sender-requests', { signal }),
  });
}

export function useSenderRequest(id: number) {
  return useQuery({
    queryKey: senderKeys.request(id),
    queryFn: ({ signal }) =>
      call('GET /sender-requests/:requestId', { params: { requestId: id }, signal }),
  });
}

export function useSubmitSenderRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ form, files }: { form: SenderRequestForm; files: readonly File[] }) =>
      call('POST /sender-requests', { form, files }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: senderKeys.requests });
      void queryClient.invalidateQueries({ queryKey: senderKeys.senders });
    },
  });
}

export function useResubmitSenderRequest(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ form, files }: { form: ResubmitForm; files: readonly File[] }) =>
      call('POST /sender-requests/:requestId/resubmit', {
        params: { requestId: id },
        form,
        files,
      }),
    onSuccess: (detail) => {
      queryClient.setQueryData(senderKeys.request(id), detail);
      void queryClient.invalidateQueries({ queryKey: senderKeys.requests });
    },
  });
}
