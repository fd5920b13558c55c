import { useQuery } from '@tanstack/react-query';
import { fetchSession } from './api-client';
import type { SessionUser } from '@contract/session';

/** The query key of the session; invalidate it after sign-in, sign-out and role changes. */
export const sessionQueryKey = ['session'] as const;

/** Who is signed in (`user: null` when nobody), read once and shared by every component. */
export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: 60_000,
    retry: 1,
  });
}

/** The signed-in user; only for components under the signed-in routes. */
export function useSessionUser(): SessionUser {
  const user = useSession().data?.user;
  if (!user) throw new Error('useSessionUser outside a signed-in route');
  return user;
}
