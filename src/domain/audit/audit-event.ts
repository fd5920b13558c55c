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

/** Which events: every field narrows, an absent one does not. */
export interface AuditFilter {
  /** Only this account's events; undefined: every account's (admins). */
  readonly accountId?: number;
  /** Only this action, or actions starting with it when it ends in `.` (`session.`). */
  readonly action?: string;
  /** Only events at or after this instant (epoch ms). */
  readonly fromMs?: number;
  /** Only events before this instant (epoch ms). */
  readonly toMs?: number;
}

export interface AuditQuery extends AuditFilter {
  readonly offset: number;
  readonly limit: number;
}

/** One page by cursor: events older than `beforeId`, newest first. */
export interface AuditPageQuery extends AuditFilter {
  /** Only events with a smaller id (the last one of the page before); null: from the newest. */
  readonly beforeId: number | null;
  readonly limit: number;
}

/** An event as the log shows it: with who its actor is and which account it is about. */
export interface AuditEntry extends AuditEvent {
  /** The actor's name and email, when the actor is a person still on record. */
  readonly actorName: string | null;
  readonly actorEmail: string | null;
  readonly accountName: string | null;
}
