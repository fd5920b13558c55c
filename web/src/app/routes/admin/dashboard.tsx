import { PlatformDashboardPage } from '../../../features/dashboard/platform-dashboard-page';

export function AdminDashboardRoute() {
  return <PlatformDashboardPage />;
}
