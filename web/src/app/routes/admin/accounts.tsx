import { AccountDetailPage } from '../../../features/admin-accounts/account-detail-page';
import { AccountsPage } from '../../../features/admin-accounts/accounts-page';

export function AdminAccountsRoute() {
  return <AccountsPage />;
}

export function AdminAccountRoute() {
  return <AccountDetailPage />;
}
