import { PlaceholderPage } from '../../components/ui/placeholder-page';

export function ProfileRoute() {
  return <PlaceholderPage area="profile" />;
}
