import { PlaceholderPage } from '../../components/ui/placeholder-page';

export function UsersRoute() {
  return <PlaceholderPage area="users" />;
}
