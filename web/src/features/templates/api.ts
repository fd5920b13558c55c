import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TemplateBody } from '@contract/templates';
import { call } from '../../lib/api-client';

const templatesKey = ['templates'] as const;

export function useTemplates() {
  return useQuery({
    queryKey: templatesKey,
    queryFn: ({ signal }) => call('GET /templates', { signal }),
  });
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TemplateBody }) =>
      id === null
        ? call('POST /templates', { body })
        : call('PUT /templates/:templateId', { params: { templateId: id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      call('DELETE /templates/:templateId', { params: { templateId: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesKey }),
  });
}

/** The send path's own rendering of a body with the values typed so far. */
export function useTemplatePreview(body: string, variables: Record<string, string>) {
  return useQuery({
    queryKey: ['template-preview', body, variables],
    queryFn: ({ signal }) => call('POST /templates/preview', { body: { body, variables }, signal }),
    enabled: body.length > 0,
    placeholderData: keepPreviousData,
  });
}
