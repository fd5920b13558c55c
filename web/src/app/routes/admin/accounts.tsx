import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export function AdminAccountsRoute() {
  return <PlaceholderPage area="adminAccounts" />;
}
