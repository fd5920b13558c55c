import { UsersPage } from '../../features/people/users-page';

export function UsersRoute() {
  return <UsersPage />;
}
