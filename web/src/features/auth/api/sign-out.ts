import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, rememberToken } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';

/** Signs out, forgets every cached answer, and reads the signed-out session (a new token). */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => rememberToken(await call('DELETE /session')),
    onSettled: async () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}
