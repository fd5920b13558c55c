import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateApiKeyBody } from '@contract/keys';
import { call } from '../../lib/api-client';

const keysQueryKey = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: keysQueryKey,
    queryFn: ({ signal }) => call('GET /keys', { signal }),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => call('POST /keys', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) => call('DELETE /keys/:keyId', { params: { keyId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryKey }),
  });
}
