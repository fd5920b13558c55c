import { PlaceholderPage } from '../../components/ui/placeholder-page';

export function DashboardRoute() {
  return <PlaceholderPage area="dashboard" />;
}
