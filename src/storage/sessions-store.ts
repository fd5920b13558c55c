import type { Store } from '../domain/ports.js';
import type { SessionRecord } from '../domain/users/user.js';
import type { Db } from './schema.js';

type SessionsStore = Pick<
  Store,
  | 'insertSession'
  | 'findSession'
  | 'touchSession'
  | 'deleteSession'
  | 'deleteUserSessions'
  | 'recordSignInFailure'
  | 'countSignInFailures'
  | 'clearSignInFailures'
>;

export function sessionsStore(db: Db): SessionsStore {
  return {
    async insertSession(session) {
      await db
        .insertInto('sessions')
        .values({
          id_hash: session.idHash,
          user_id: session.userId,
          csrf_token: session.csrfToken,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          ip: session.ip,
        })
        .execute();
    },

    async findSession(idHash) {
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      if (!row) return null;
      const session: SessionRecord = {
        idHash: row.id_hash,
        userId: row.user_id,
        csrfToken: row.csrf_token,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        ip: row.ip,
      };
      return session;
    },

    async touchSession(idHash, nowMs) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: nowMs })
        .where('id_hash', '=', idHash)
        .execute();
    },

    async deleteSession(idHash) {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },

    async deleteUserSessions(userId) {
      const result = await db
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async recordSignInFailure(scope, nowMs) {
      await db.insertInto('sign_in_failures').values({ scope, at: nowMs }).execute();
    },

    async countSignInFailures(scope, sinceMs) {
      const row = await db
        .selectFrom('sign_in_failures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scope', '=', scope)
        .where('at', '>=', sinceMs)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async clearSignInFailures(scope) {
      await db.deleteFrom('sign_in_failures').where('scope', '=', scope).execute();
    },
  };
}
