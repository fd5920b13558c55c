/**
 * One line of the append-only audit log: who (`actorUserId`, null for the system or an
 * anonymous caller) did what (`action`, `<area>.<verb>` such as `session.sign-in`) on which
 * account, to what (`targetType`/`targetId`), from which address, with `detail` (JSON; never a
 * secret: `recordAudit` refuses one).
 */
export interface AuditEventInput {
  readonly actorUserId: number | null;
  readonly accountId: number | null;
  readonly action: string;
  readonly targetType?: string | null;
  readonly targetId?: string | number | null;
  readonly detail?: Readonly<Record<string, unknown>>;
  readonly ip: string | null;
  readonly at: number;
}

export interface AuditEvent {
  readonly id: number;
  readonly at: number;
  readonly actorUserId: number | null;
  readonly accountId: number | null;
  readonly action: string;
  readonly targetType: string | null;
  readonly targetId: string | null;
  readonly detail: Record<string, unknown>;
  readonly ip: string | null;
}

export interface AuditQuery {
  /** Only this account's events; undefined: every account's (admins). */
  readonly accountId?: number;
  /** Only this action, or actions starting with it when it ends in `.` (`session.`). */
  readonly action?: string;
  readonly offset: number;
  readonly limit: number;
}
