import type { AuditStore } from './audit-store.js';
import { invalidParameter } from '../errors.js';
import { parseIdCursor } from '../id-cursor.js';
import type { AuditEntry, AuditFilter } from './audit-event.js';

export interface AuditLogPage {
  readonly items: AuditEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * The audit log, newest first, paged by cursor (the id of the last event shown, so events
 * written while someone pages never shift or repeat a page), narrowed by account, action and
 * a window of time `[fromMs, toMs)`.
 */
export async function listAuditLog(
  store: AuditStore,
  input: AuditFilter & { cursor?: string; limit: number },
): Promise<AuditLogPage> {
  const { cursor, limit, ...filter } = input;
  if (filter.fromMs !== undefined && filter.toMs !== undefined && filter.fromMs > filter.toMs) {
    throw invalidParameter("'from' is after 'to': give a window that starts before it ends");
  }
  const beforeId = cursor === undefined ? null : parseIdCursor(cursor);
  const rows = await store.auditEventsPage({ ...filter, beforeId, limit: limit + 1 });
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items, nextCursor: more ? String(items[items.length - 1]!.id) : null };
}
