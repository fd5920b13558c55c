import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiKeyListSchema,
  apiKeySchema,
  createdApiKeySchema,
  type CreateApiKeyBody,
} from '@contract/keys';
import { api } from '../../lib/api-client';

const keysQueryKey = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: keysQueryKey,
    queryFn: ({ signal }) => api.get('/keys', { schema: apiKeyListSchema, signal }),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) =>
      api.post('/keys', { body, schema: createdApiKeySchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) => api.delete(`/keys/${keyId}`, { schema: apiKeySchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryKey }),
  });
}
