import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export function AdminCarriersRoute() {
  return <PlaceholderPage area="adminCarriers" />;
}
