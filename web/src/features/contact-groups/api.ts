import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, uploadFile } from '../../lib/api-client';

const groupsKey = ['contact-groups'] as const;

export function useContactGroups() {
  return useQuery({
    queryKey: groupsKey,
    queryFn: ({ signal }) => call('GET /contact-groups', { signal }),
  });
}

export function useContactGroup(groupId: number) {
  return useQuery({
    queryKey: [...groupsKey, groupId],
    queryFn: ({ signal }) => call('GET /contact-groups/:groupId', { params: { groupId }, signal }),
  });
}

export function useMembers(groupId: number, search: string, offset: number, limit: number) {
  return useQuery({
    queryKey: [...groupsKey, groupId, 'members', { search, offset, limit }],
    queryFn: ({ signal }) =>
      call('GET /contact-groups/:groupId/members', {
        params: { groupId },
        query: { search: search || undefined, offset, limit },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useInvalidateGroups() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: groupsKey });
}

export function useCreateGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (name: string) => call('POST /contact-groups', { body: { name } }),
    onSuccess: invalidate,
  });
}

export function useRenameGroup(groupId: number) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (name: string) =>
      call('PATCH /contact-groups/:groupId', { params: { groupId }, body: { name } }),
    onSuccess: invalidate,
  });
}

export function useDeleteGroup(groupId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('DELETE /contact-groups/:groupId', { params: { groupId } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [...groupsKey, groupId] });
      return queryClient.invalidateQueries({ queryKey: groupsKey });
    },
  });
}

export function useChangeMembers(groupId: number, change: 'add' | 'remove') {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (numbers: string[]) =>
      change === 'add'
        ? call('POST /contact-groups/:groupId/members', { params: { groupId }, body: { numbers } })
        : call('DELETE /contact-groups/:groupId/members', {
            params: { groupId },
            body: { numbers },
          }),
    onSuccess: invalidate,
  });
}

export function importIntoGroup(
  groupId: number,
  file: File,
  onProgress: (fraction: number) => void,
) {
  return uploadFile('POST /contact-groups/:groupId/import', {
    params: { groupId },
    file,
    onProgress,
  });
}
