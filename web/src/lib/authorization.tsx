import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { StatusPage } from '../components/ui/status-page';
import { LoadingScreen } from '../components/ui/loading-screen';
import { ApiError } from './api-client';
import type { Role } from '@contract/session';
import { useSession } from './session';

/** Whether a role may open a page that allows `roles`. */
export function canAccess(role: Role, roles: readonly Role[]): boolean {
  return roles.includes(role);
}

/** Where someone who must set up two-factor sign-in is sent, and kept until they have. */
export const ENROLMENT_PATH = '/profile';

/**
 * Renders its children for a signed-in user only; anyone else goes to sign-in, with the page
 * they asked for kept in `next` so they land on it afterwards. Someone who must use two-factor
 * sign-in and has not set it up is sent to the profile page (the server refuses everything
 * else to them with 403 TOTP_ENROLMENT_REQUIRED).
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <LoadingScreen />;
  if (session.isError) return <SessionUnavailable error={session.error} retry={session.refetch} />;
  if (!session.data.user) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  const { user } = session.data;
  if (user.totpRequired !== null && !user.totpEnabled && location.pathname !== ENROLMENT_PATH) {
    return <Navigate to={ENROLMENT_PATH} replace />;
  }
  return children;
}

/**
 * Renders its children when the signed-in user's role is one of `roles`, else says the page
 * is not theirs. The server refuses the page's API calls all the same: this only spares the
 * user a page of errors.
 */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const user = useSession().data?.user;
  if (!user) return null;
  if (!canAccess(user.role, roles)) {
    return <StatusPage kind="forbidden" />;
  }
  return children;
}

function SessionUnavailable({ error, retry }: { error: Error; retry: () => unknown }) {
  const detail = error instanceof ApiError ? `${error.code}: ${error.message}` : error.message;
  return <StatusPage kind="unavailable" detail={detail} onRetry={() => void retry()} />;
}
