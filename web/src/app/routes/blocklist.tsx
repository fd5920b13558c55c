import { AdminBlocklistPage, BlocklistPage } from '../../features/blocklist/blocklist-page';

export function BlocklistRoute() {
  return <BlocklistPage />;
}

export function AdminBlocklistRoute() {
  return <AdminBlocklistPage />;
}
