import type { SelectQueryBuilder } from 'kysely';
import type { AuditEvent, AuditFilter } from '../domain/audit/audit-event.js';
import type { Store } from '../domain/store.js';
import type { Db, Row, Tables } from './schema.js';

type AuditStore = Pick<Store, 'insertAuditEvent' | 'listAuditEvents' | 'auditEventsPage'>;

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

    async listAuditEvents({ offset, limit, ...filter }) {
      const query = filtered(db.selectFrom('audit_events'), filter);
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toEvent), total: Number(count.n) };
    },

    /*
     * Keyset paging on the primary key, newest first: with an account, the
     * (account_id, id) index serves it; events written meanwhile never shift a page.
     */
    async auditEventsPage({ beforeId, limit, ...filter }) {
      let query = filtered(db.selectFrom('audit_events'), filter);
      if (beforeId !== null) query = query.where('audit_events.id', '<', beforeId);
      const rows = await query
        .leftJoin('users', 'users.id', 'audit_events.actor_user_id')
        .leftJoin('accounts', 'accounts.id', 'audit_events.account_id')
        .selectAll('audit_events')
        .select([
          'users.name as actor_name',
          'users.email as actor_email',
          'accounts.name as account_name',
        ])
        .orderBy('audit_events.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        ...toEvent(row),
        actorName: row.actor_name,
        actorEmail: row.actor_email,
        accountName: row.account_name,
      }));
    },
  };
}

function filtered<O>(
  query: SelectQueryBuilder<Tables, 'audit_events', O>,
  { accountId, action, fromMs, toMs }: AuditFilter,
): SelectQueryBuilder<Tables, 'audit_events', O> {
  let q = query;
  if (accountId !== undefined) q = q.where('audit_events.account_id', '=', accountId);
  if (action !== undefined) {
    q = action.endsWith('.')
      ? q.where('audit_events.action', 'like', `${action.replace(/[%_\\]/g, '')}%`)
      : q.where('audit_events.action', '=', action);
  }
  if (fromMs !== undefined) q = q.where('audit_events.at', '>=', fromMs);
  if (toMs !== undefined) q = q.where('audit_events.at', '<', toMs);
  return q;
}

function toEvent(row: Row<'audit_events'>): AuditEvent {
  return {
    id: Number(row.id),
    at: Number(row.at),
    actorUserId: row.actor_user_id === null ? null : Number(row.actor_user_id),
    accountId: row.account_id === null ? null : Number(row.account_id),
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    ip: row.ip,
  };
}
