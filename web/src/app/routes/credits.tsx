import { PlaceholderPage } from '../../components/ui/placeholder-page';

export function CreditsRoute() {
  return <PlaceholderPage area="credits" />;
}
