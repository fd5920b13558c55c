import { keepPreviousData, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import type { PreviewBody, RecipientList, SendBody } from '@contract/compose';
import { call, uploadFile } from '../../lib/api-client';

export function useTemplates() {
  return useQuery({
    queryKey: ['templates'],
    queryFn: ({ signal }) => call('GET /templates', { signal }),
  });
}

export function useContactGroups() {
  return useQuery({
    queryKey: ['contact-groups'],
    queryFn: ({ signal }) => call('GET /contact-groups', { signal }),
  });
}

/**
 * The cost of the message as it is typed: asked again a moment after the typing stops. `body`
 * must keep its identity while it is unchanged, or the debounce never settles.
 */
export function usePreview(body: PreviewBody | null) {
  const [settled] = useDebouncedValue(body, 400);
  return useQuery({
    queryKey: ['preview-cost', settled],
    queryFn:
      settled === null
        ? skipToken
        : ({ signal }) => call('POST /messages/preview-cost', { body: settled, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useSend() {
  return useMutation({
    mutationFn: (body: SendBody) => call('POST /messages', { body }),
  });
}

/**
 * Uploads a number file as it is on disk (the browser never reads it) to become a list the
 * dry run and the send name; `onProgress` hears the share of bytes sent, 0 to 1.
 */
export function uploadNumbers(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<RecipientList> {
  return uploadFile('POST /recipient-lists', { file, onProgress, signal });
}
