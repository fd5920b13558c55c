import { AuditLogPage } from '../../features/audit-log/audit-log-page';

export function AuditLogRoute() {
  return <AuditLogPage />;
}
