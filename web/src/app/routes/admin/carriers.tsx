import { CarriersPage } from '../../../features/carriers/carriers-page';

export function AdminCarriersRoute() {
  return <CarriersPage />;
}
