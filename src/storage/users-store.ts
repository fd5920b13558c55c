import type { Store } from '../domain/ports.js';
import type { User, UserRole, UserStatus } from '../domain/users/user.js';
import type { Db, UserRow } from './schema.js';

type UsersStore = Pick<
  Store,
  'createUser' | 'findUser' | 'findUserByEmail' | 'listUsers' | 'updateUser'
>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as UserRole,
    accountId: row.account_id,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    totpEnabledAt: row.totp_enabled_at,
    recoveryCodeHashes: row.recovery_codes ? (JSON.parse(row.recovery_codes) as string[]) : [],
    status: row.status as UserStatus,
    timeZone: row.time_zone,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function usersStore(db: Db): UsersStore {
  return {
    async createUser({ email, name, role, accountId, passwordHash, timeZone = null, nowMs }) {
      const row = await db
        .insertInto('users')
        .values({
          email,
          name,
          role,
          account_id: accountId,
          password_hash: passwordHash,
          totp_secret: null,
          totp_enabled_at: null,
          recovery_codes: null,
          status: 'active',
          time_zone: timeZone,
          created_at: nowMs,
          updated_at: nowMs,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },

    async findUser(id) {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toUser(row) : null;
    },

    async findUserByEmail(email) {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },

    async listUsers({ accountId, role }) {
      let query = db.selectFrom('users').selectAll().orderBy('id');
      if (accountId !== undefined) query = query.where('account_id', '=', accountId);
      if (role !== undefined) query = query.where('role', '=', role);
      return (await query.execute()).map(toUser);
    },

    async updateUser(id, changes, nowMs) {
      const row = await db
        .updateTable('users')
        .set({
          updated_at: nowMs,
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.role !== undefined && { role: changes.role }),
          ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
          ...(changes.totpSecret !== undefined && { totp_secret: changes.totpSecret }),
          ...(changes.totpEnabledAt !== undefined && { totp_enabled_at: changes.totpEnabledAt }),
          ...(changes.recoveryCodeHashes !== undefined && {
            recovery_codes: JSON.stringify(changes.recoveryCodeHashes),
          }),
          ...(changes.status !== undefined && { status: changes.status }),
          ...(changes.timeZone !== undefined && { time_zone: changes.timeZone }),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
  };
}
