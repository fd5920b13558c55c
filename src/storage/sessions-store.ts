import { sql } from 'kysely';
import type { Store } from '../domain/store.js';
import type { SessionRecord } from '../domain/users/user.js';
import type { Db } from './schema.js';

type SessionsStore = Pick<
  Store,
  | 'insertSession'
  | 'findSession'
  | 'touchSession'
  | 'deleteSession'
  | 'deleteUserSessions'
  | 'purgeSessions'
  | 'countAttempt'
  | 'uncountAttempt'
  | 'clearAttempts'
  | 'purgeAttempts'
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

    async purgeSessions({ lastSeenBefore, createdBefore }, limit) {
      // Each condition on its own index, oldest first, within one limit in all.
      let purged = 0;
      for (const [column, cutoff] of [
        ['last_seen_at', lastSeenBefore],
        ['created_at', createdBefore],
      ] as const) {
        if (purged >= limit) break;
        const result = await db
          .deleteFrom('sessions')
          .where(
            'id_hash',
            'in',
            db
              .selectFrom('sessions')
              .select('id_hash')
              .where(column, '<=', cutoff)
              .orderBy(column)
              .limit(limit - purged),
          )
          .executeTakeFirst();
        purged += Number(result.numDeletedRows);
      }
      return purged;
    },

    async countAttempt(scope, windowMs, nowMs) {
      // An ended window starts again at 1; an open one counts up. The row's lock (PostgreSQL)
      // or the one writer (SQLite) orders concurrent callers, each reading the other's count.
      const ended = sql<boolean>`sign_in_throttles.expires_at <= ${nowMs}`;
      const row = await db
        .insertInto('sign_in_throttles')
        .values({ scope, expires_at: nowMs + windowMs, attempts: 1 })
        .onConflict((oc) =>
          oc.column('scope').doUpdateSet({
            attempts: sql<number>`CASE WHEN ${ended} THEN 1 ELSE sign_in_throttles.attempts + 1 END`,
            expires_at: sql<number>`CASE WHEN ${ended} THEN ${nowMs + windowMs} ELSE sign_in_throttles.expires_at END`,
          }),
        )
        .returning(['attempts', 'expires_at'])
        .executeTakeFirstOrThrow();
      return { attempts: Number(row.attempts), expiresAt: Number(row.expires_at) };
    },

    async uncountAttempt(scope, expiresAt) {
      await db
        .updateTable('sign_in_throttles')
        .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
        .where('scope', '=', scope)
        .where('expires_at', '=', expiresAt)
        .where('attempts', '>', 0)
        .execute();
    },

    async clearAttempts(scope) {
      await db.deleteFrom('sign_in_throttles').where('scope', '=', scope).execute();
    },

    async purgeAttempts(nowMs, limit) {
      const result = await db
        .deleteFrom('sign_in_throttles')
        .where(
          'scope',
          'in',
          db
            .selectFrom('sign_in_throttles')
            .select('scope')
            .where('expires_at', '<=', nowMs)
            .orderBy('expires_at')
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
