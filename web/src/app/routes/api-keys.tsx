import { PlaceholderPage } from '../../components/ui/placeholder-page';

export function ApiKeysRoute() {
  return <PlaceholderPage area="apiKeys" />;
}
