import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AcceptInvitationBody, CompleteResetBody, InviteBody } from '@contract/people';
import { call, rememberToken } from '../../lib/api-client';
import { sessionQueryKey } from '../../lib/session';

/**
 * The people of an account: the owner's own (`/users`, `/invitations`) or, for a platform
 * admin, any account's (`/admin/accounts/:id/users`, `/admin/invitations`).
 */
export interface PeopleScope {
  /** The account an admin manages; null for the owner's own. */
  readonly accountId: number | null;
  readonly queryKey: readonly unknown[];
}

export const ownPeople: PeopleScope = { accountId: null, queryKey: ['people'] };

export function accountPeople(accountId: number): PeopleScope {
  return { accountId, queryKey: ['admin', 'people', accountId] };
}

export function usePeople(scope: PeopleScope) {
  const { accountId } = scope;
  return useQuery({
    queryKey: scope.queryKey,
    queryFn: ({ signal }) =>
      accountId === null
        ? call('GET /users', { signal })
        : call('GET /admin/accounts/:accountId/users', { params: { accountId }, signal }),
  });
}

function useChanged(scope: PeopleScope) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: scope.queryKey });
}

function invite({ accountId }: PeopleScope, body: InviteBody) {
  return accountId === null
    ? call('POST /invitations', { body })
    : call('POST /admin/accounts/:accountId/invitations', { params: { accountId }, body });
}

export function useInvite(scope: PeopleScope) {
  const changed = useChanged(scope);
  return useMutation({
    mutationFn: (body: InviteBody) => invite(scope, body),
    onSuccess: changed,
  });
}

export function useResendInvitation(scope: PeopleScope) {
  const changed = useChanged(scope);
  return useMutation({
    mutationFn: (invitationId: number) =>
      scope.accountId === null
        ? call('POST /invitations/:invitationId/resend', { params: { invitationId } })
        : call('POST /admin/invitations/:invitationId/resend', { params: { invitationId } }),
    onSuccess: changed,
  });
}

export function useRevokeInvitation(scope: PeopleScope) {
  const changed = useChanged(scope);
  return useMutation({
    mutationFn: (invitationId: number) =>
      scope.accountId === null
        ? call('DELETE /invitations/:invitationId', { params: { invitationId } })
        : call('DELETE /admin/invitations/:invitationId', { params: { invitationId } }),
    onSuccess: changed,
  });
}

export function useRemoveMember() {
  const changed = useChanged(ownPeople);
  return useMutation({
    mutationFn: (userId: number) => call('DELETE /users/:userId', { params: { userId } }),
    onSuccess: changed,
  });
}

/** Invites an account's owner right after an admin created the account. */
export function inviteOwner(accountId: number, email: string) {
  return invite(accountPeople(accountId), { email, role: 'owner' });
}

/** What a mailed invitation link is for; the token comes from the link's fragment. */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation-preview', token],
    queryFn: () => call('POST /invitation/look-up', { body: { token } }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/** Accepts an invitation; the answer is a new signed-in session, as after sign-in. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AcceptInvitationBody) =>
      rememberToken(await call('POST /invitation/accept', { body })),
    onSuccess: (session) => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
      queryClient.setQueryData(sessionQueryKey, session);
    },
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) => call('POST /password-reset/request', { body: { email } }),
  });
}

export function useResetPreview(token: string) {
  return useQuery({
    queryKey: ['reset-preview', token],
    queryFn: () => call('POST /password-reset/look-up', { body: { token } }),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

export function useCompletePasswordReset() {
  return useMutation({
    mutationFn: (body: CompleteResetBody) => call('POST /password-reset/complete', { body }),
  });
}

/** The token of a mailed link: `#token=…` (the fragment never reaches a server). */
export function tokenFromHash(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}
