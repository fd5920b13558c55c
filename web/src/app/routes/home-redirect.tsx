import { Navigate } from 'react-router';
import { useSessionUser } from '../../lib/session';
import { homePath } from '../areas';

/** /console itself: the user's first area. */
export function HomeRedirect() {
  return <Navigate to={homePath(useSessionUser().role)} replace />;
}
