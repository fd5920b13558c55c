/**
 * Who makes a change and from where, as every use case that changes state takes it and writes
 * it to the audit log with the change: a console user and their address, or `SYSTEM_ACTOR`
 * for an operator at a terminal (`nok admin …`) or start-up.
 */
export interface AuditActor {
  readonly actorUserId: number | null;
  readonly ip: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { actorUserId: null, ip: null };
