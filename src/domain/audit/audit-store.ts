import type {
  AuditEntry,
  AuditEvent,
  AuditEventInput,
  AuditPageQuery,
  AuditQuery,
} from './audit-event.js';

/** The audit log: append-only, written through record-audit.ts. */
export interface AuditStore {
  insertAuditEvent(event: AuditEventInput): Promise<void>;
  listAuditEvents(query: AuditQuery): Promise<{ items: AuditEvent[]; total: number }>;
  /** A page of the log by id, newest first, with each event's actor and account named. */
  auditEventsPage(query: AuditPageQuery): Promise<AuditEntry[]>;
}
