import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, uploadFile } from '../../lib/api-client';

/**
 * Which list a page shows: the account's own (`/blocklist`), the platform's as customers read it
 * (`/blocklist/platform`), or the platform's as admins change it (`/admin/blocklist`).
 */
export type BlocklistPath = '/blocklist' | '/blocklist/platform' | '/admin/blocklist';
/** The lists that can be changed: the account's own, and the platform's (admins). */
export type ChangeablePath = Exclude<BlocklistPath, '/blocklist/platform'>;

const blocklistKey = ['blocklist'] as const;

export function useBlocklist(path: BlocklistPath, search: string, offset: number, limit: number) {
  return useQuery({
    queryKey: [...blocklistKey, path, { search, offset, limit }],
    queryFn: ({ signal }) =>
      call(`GET ${path}`, { query: { search: search || undefined, offset, limit }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useInvalidateBlocklist() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: blocklistKey });
}

/** Adds or removes numbers; the platform's list as customers read it changes nowhere. */
export function useChangeBlocklist(path: BlocklistPath, change: 'add' | 'remove') {
  const invalidate = useInvalidateBlocklist();
  return useMutation({
    mutationFn: async (numbers: string[]): Promise<unknown> => {
      if (path === '/blocklist/platform') throw new Error('the platform blocklist is read-only');
      return change === 'add'
        ? call(`POST ${path}`, { body: { numbers } })
        : call(`DELETE ${path}`, { body: { numbers } });
    },
    onSuccess: invalidate,
  });
}

export function importIntoBlocklist(
  path: ChangeablePath,
  file: File,
  onProgress: (fraction: number) => void,
) {
  return uploadFile(`POST ${path}/import`, { file, onProgress });
}
