import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call, rememberToken } from '../../../lib/api-client';
import { sessionQueryKey } from '../../../lib/session';
import type { SignInBody } from '@contract/session';

/**
 * Signs in. The server starts a new session (a new id and CSRF token), so the answer replaces
 * the session query and every cached answer of the signed-out state is dropped.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SignInBody) => rememberToken(await call('POST /session', { body })),
    onSuccess: (session) => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
      queryClient.setQueryData(sessionQueryKey, session);
    },
  });
}
