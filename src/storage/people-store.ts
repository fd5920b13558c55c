import type {
  Invitation,
  InvitedRole,
  PasswordReset,
  PeopleStore,
} from '../domain/users/people-store.js';
import type { Db, InvitationRow, PasswordResetRow } from './schema.js';

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    email: row.email,
    name: row.name,
    role: row.role as InvitedRole,
    invitedBy: row.invited_by === null ? null : Number(row.invited_by),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

function toPasswordReset(row: PasswordResetRow): PasswordReset {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

/** Invitations and password resets (their tokens by hash only), and deleting a person. */
export function peopleStore(db: Db): PeopleStore {
  return {
    async insertInvitation(input) {
      const row = await db
        .insertInto('invitations')
        .values({
          token_hash: input.tokenHash,
          email: input.email,
          name: input.name,
          role: input.role,
          account_id: input.accountId,
          invited_by: input.invitedBy,
          created_at: input.nowMs,
          expires_at: input.expiresAt,
          used_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toInvitation(row);
    },

    async findInvitation(id) {
      const row = await db
        .selectFrom('invitations')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toInvitation(row) : null;
    },

    async findInvitationByTokenHash(tokenHash) {
      const row = await db
        .selectFrom('invitations')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? toInvitation(row) : null;
    },

    async listOpenInvitations(accountId) {
      const rows = await db
        .selectFrom('invitations')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('used_at', 'is', null)
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toInvitation);
    },

    async renewInvitation(id, change) {
      const row = await db
        .updateTable('invitations')
        .set({
          token_hash: change.tokenHash,
          created_at: change.nowMs,
          expires_at: change.expiresAt,
        })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row ? toInvitation(row) : null;
    },

    async useInvitation(id, nowMs) {
      const result = await db
        .updateTable('invitations')
        .set({ used_at: nowMs })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteInvitation(id) {
      const result = await db.deleteFrom('invitations').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async insertPasswordReset(input) {
      const row = await db
        .insertInto('password_resets')
        .values({
          token_hash: input.tokenHash,
          user_id: input.userId,
          created_at: input.nowMs,
          expires_at: input.expiresAt,
          used_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toPasswordReset(row);
    },

    async findPasswordResetByTokenHash(tokenHash) {
      const row = await db
        .selectFrom('password_resets')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? toPasswordReset(row) : null;
    },

    async usePasswordReset(id, nowMs) {
      const result = await db
        .updateTable('password_resets')
        .set({ used_at: nowMs })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async closePasswordResets(userId, nowMs) {
      await db
        .updateTable('password_resets')
        .set({ used_at: nowMs })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },

    async purgeOneTimeLinks(expiredBy, limit) {
      const purge = async (table: 'invitations' | 'password_resets') => {
        const result = await db
          .deleteFrom(table)
          .where(
            'id',
            'in',
            db
              .selectFrom(table)
              .select('id')
              .where('expires_at', '<=', expiredBy)
              .orderBy('expires_at')
              .limit(limit),
          )
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      };
      return {
        invitations: await purge('invitations'),
        passwordResets: await purge('password_resets'),
      };
    },

    async deleteUser(userId) {
      await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
      await db
        .updateTable('invitations')
        .set({ invited_by: null })
        .where('invited_by', '=', userId)
        .execute();
      await db.deleteFrom('users').where('id', '=', userId).execute();
    },
  };
}
