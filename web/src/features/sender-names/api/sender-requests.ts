import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  senderRequestDetailSchema,
  senderRequestListSchema,
  type ResubmitForm,
  type SenderRequestForm,
} from '@contract/senders';
import { api } from '../../../lib/api-client';
import { senderKeys } from './senders';

export function useSenderRequests() {
  return useQuery({
    queryKey: senderKeys.requests,
    queryFn: ({ signal }) =>
      api.get('/sender-requests', { schema: senderRequestListSchema, signal }),
  });
}

export function useSenderRequest(id: number) {
  return useQuery({
    queryKey: senderKeys.request(id),
    queryFn: ({ signal }) =>
      api.get(`/sender-requests/${id}`, { schema: senderRequestDetailSchema, signal }),
  });
}

/** The multipart body the server reads: the form as JSON in `request`, then each file. */
function uploadBody(form: SenderRequestForm | ResubmitForm, files: readonly File[]): FormData {
  const body = new FormData();
  body.append('request', JSON.stringify(form));
  for (const file of files) body.append('documents', file, file.name);
  return body;
}

export function useSubmitSenderRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ form, files }: { form: SenderRequestForm; files: readonly File[] }) =>
      api.post('/sender-requests', {
        body: uploadBody(form, files),
        schema: senderRequestDetailSchema,
      }),
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
      api.post(`/sender-requests/${id}/resubmit`, {
        body: uploadBody(form, files),
        schema: senderRequestDetailSchema,
      }),
    onSuccess: (detail) => {
      queryClient.setQueryData(senderKeys.request(id), detail);
      void queryClient.invalidateQueries({ queryKey: senderKeys.requests });
    },
  });
}
