import type { Store } from '../domain/store.js';
import type { User, UserRole, UserStatus } from '../domain/users/user.js';
import type { Db, UserRow } from './schema.js';

type UsersStore = Pick<
  Store,
  | 'createUser'
  | 'findUser'
  | 'findUserByEmail'
  | 'listUsers'
  | 'updateUser'
  | 'claimTotpStep'
  | 'consumeRecoveryCode'
  | 'setAccountRequireTotp'
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
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
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
          totp_last_step: null,
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
          ...(changes.totpLastStep !== undefined && { totp_last_step: changes.totpLastStep }),
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

    async claimTotpStep(userId, step) {
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async consumeRecoveryCode(userId, codeHash) {
      const row = await db
        .selectFrom('users')
        .select('recovery_codes')
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!row?.recovery_codes) return null;
      const hashes = JSON.parse(row.recovery_codes) as string[];
      if (!hashes.includes(codeHash)) return null;
      const left = hashes.filter((h) => h !== codeHash);
      // Compare-and-set on the list as read: a request that used a code meanwhile wins.
      const result = await db
        .updateTable('users')
        .set({ recovery_codes: JSON.stringify(left) })
        .where('id', '=', userId)
        .where('recovery_codes', '=', row.recovery_codes)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? left.length : null;
    },

    async setAccountRequireTotp(accountId, required) {
      const result = await db
        .updateTable('accounts')
        .set({ require_totp: required ? 1 : 0 })
        .where('id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
