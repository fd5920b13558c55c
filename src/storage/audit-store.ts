import type { AuditEvent } from '../domain/audit/audit-event.js';
import type { Store } from '../domain/ports.js';
import type { Db } from './schema.js';

type AuditStore = Pick<Store, 'insertAuditEvent' | 'listAuditEvents'>;

export function auditStore(db: Db): AuditStore {
  return {
    async insertAuditEvent(event) {
      await db
        .insertInto('audit_events')
        .values({
          at: event.at,
          actor_user_id: event.actorUserId,
          account_id: event.accountId,
          action: event.action,
          target_type: event.targetType ?? null,
          target_id:
            event.targetId === undefined || event.targetId === null ? null : String(event.targetId),
          detail: JSON.stringify(event.detail ?? {}),
          ip: event.ip,
        })
        .execute();
    },

    async listAuditEvents({ accountId, action, offset, limit }) {
      let query = db.selectFrom('audit_events');
      if (accountId !== undefined) query = query.where('account_id', '=', accountId);
      if (action !== undefined) {
        query = action.endsWith('.')
          ? query.where('action', 'like', `${action.replace(/[%_\\]/g, '')}%`)
          : query.where('action', '=', action);
      }
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const items: AuditEvent[] = rows.map((row) => ({
        id: row.id,
        at: row.at,
        actorUserId: row.actor_user_id,
        accountId: row.account_id,
        action: row.action,
        targetType: row.target_type,
        targetId: row.target_id,
        detail: JSON.parse(row.detail) as Record<string, unknown>,
        ip: row.ip,
      }));
      return { items, total: Number(count.n) };
    },
  };
}
