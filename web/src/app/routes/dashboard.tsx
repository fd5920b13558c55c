import { DashboardPage } from '../../features/dashboard/dashboard-page';

export function DashboardRoute() {
  return <DashboardPage />;
}
