import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PasswordChange, ProfileChange } from '@contract/profile';
import type { Session } from '@contract/session';
import { call, rememberToken } from '../../lib/api-client';
import { sessionQueryKey } from '../../lib/session';

const profileQueryKey = ['profile'] as const;

export function useProfile() {
  return useQuery({
    queryKey: profileQueryKey,
    queryFn: ({ signal }) => call('GET /profile', { signal }),
  });
}

/** After a change of the person or a new session id: the profile and the session are read again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return {
    profile: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
    /** A rotated session: its token for the next request, its user for every page. */
    session: (session: Session) => {
      rememberToken(session);
      queryClient.setQueryData(sessionQueryKey, session);
    },
    reread: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  };
}

export function useUpdateProfile() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: ProfileChange) => call('PATCH /profile', { body }),
    onSuccess: () => Promise.all([refresh.profile(), refresh.reread()]),
  });
}

export function useChangePassword() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: PasswordChange) => call('POST /profile/password', { body }),
    onSuccess: (session) => refresh.session(session),
  });
}

export function useStartTotp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => call('POST /profile/totp'),
    onSuccess: () => refresh.profile(),
  });
}

export function useConfirmTotp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => call('POST /profile/totp/confirm', { body: { code } }),
    onSuccess: async (confirmed) => {
      refresh.session(confirmed.session);
      await refresh.profile();
    },
  });
}

export function useRegenerateRecoveryCodes() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => call('POST /profile/totp/recovery-codes', { body: { code } }),
    onSuccess: () => refresh.profile(),
  });
}

export function useDisableTotp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (code: string) => call('POST /profile/totp/disable', { body: { code } }),
    onSuccess: () => Promise.all([refresh.profile(), refresh.reread()]),
  });
}

export function useSetAccountRequiresTotp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (required: boolean) => call('PUT /account/two-factor', { body: { required } }),
    onSuccess: () => Promise.all([refresh.profile(), refresh.reread()]),
  });
}

/** Ends every session of the person, this one too; the answer is a new signed-out session. */
export function useSignOutEverywhere() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /session/sign-out-everywhere'),
    onSuccess: (session) => {
      rememberToken(session);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
      queryClient.setQueryData(sessionQueryKey, session);
    },
  });
}
