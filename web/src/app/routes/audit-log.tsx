import { PlaceholderPage } from '../../components/ui/placeholder-page';

export function AuditLogRoute() {
  return <PlaceholderPage area="auditLog" />;
}
