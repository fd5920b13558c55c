import { sql, type SqlBool } from 'kysely';
import type { Store } from '../domain/store.js';
import type { Db } from './schema.js';
import type { LedgerReason } from '../domain/credits/ledger-store.js';
import type { AccountStatus } from '../domain/statuses.js';
import { fromLedger } from './from-ledger.js';
import { containsPattern, toAccount, toApiKey } from './rows.js';

type AccountsStore = Pick<
  Store,
  | 'createAccount'
  | 'findAccount'
  | 'countAccounts'
  | 'createApiKey'
  | 'findApiKeyByPrefix'
  | 'findApiKeyWithAccount'
  | 'findApiKey'
  | 'revokeApiKey'
  | 'touchApiKey'
  | 'listApiKeys'
  | 'listAccounts'
  | 'updateAccountSettings'
  | 'setAccountStatus'
  | 'ledgerSum'
  | 'ledgerPage'
  | 'nextRefNo'
>;

export function accountsStore(db: Db): AccountsStore {
  return {
    async createAccount({ name, pricePerPart = 1, nowMs }) {
      const row = await db
        .insertInto('accounts')
        .values({
          name,
          price_per_part: pricePerPart,
          next_ref_no: 1,
          status: 'active',
          created_at: nowMs,
          rate_limit_requests: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAccount(row);
    },

    async findAccount(id) {
      const row = await db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toAccount(row) : null;
    },

    async countAccounts() {
      const row = await db
        .selectFrom('accounts')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async createApiKey({ accountId, name, prefix, secretHash, scopes, nowMs }) {
      const row = await db
        .insertInto('api_keys')
        .values({
          account_id: accountId,
          name,
          prefix,
          secret_hash: secretHash,
          scopes: scopes.join(' '),
          created_at: nowMs,
          last_used_at: null,
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toApiKey(row);
    },

    async findApiKeyByPrefix(prefix) {
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('prefix', '=', prefix)
        .executeTakeFirst();
      return row ? toApiKey(row) : null;
    },

    // Every request authenticates: the key and its account come in one round trip.
    async findApiKeyWithAccount(prefix) {
      const row = await db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .selectAll('api_keys')
        .select(['accounts.status as account_status', 'accounts.rate_limit_requests'])
        .where('api_keys.prefix', '=', prefix)
        .executeTakeFirst();
      if (!row) return null;
      const { account_status, rate_limit_requests, ...key } = row;
      return {
        key: toApiKey(key),
        account: {
          status: account_status as AccountStatus,
          rateLimitRequests: rate_limit_requests,
        },
      };
    },

    async findApiKey(id) {
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toApiKey(row) : null;
    },

    async revokeApiKey(id, nowMs) {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: nowMs })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async touchApiKey(id, nowMs) {
      await db.updateTable('api_keys').set({ last_used_at: nowMs }).where('id', '=', id).execute();
    },

    async listApiKeys(accountId) {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toApiKey);
    },

    async listAccounts({ search, offset, limit }) {
      let query = db.selectFrom('accounts');
      if (search) {
        const pattern = containsPattern(search);
        query = query.where(sql<SqlBool>`lower(name) like ${pattern} ESCAPE '\\'`);
      }
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('id').offset(offset).limit(limit).execute(),
        query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toAccount), total: Number(count.n) };
    },

    async updateAccountSettings(id, { pricePerPart, rateLimitRequests, lowBalanceThreshold }) {
      const changes = {
        ...(lowBalanceThreshold === undefined
          ? {}
          : { low_balance_threshold: lowBalanceThreshold }),
        ...(pricePerPart === undefined ? {} : { price_per_part: pricePerPart }),
        ...(rateLimitRequests === undefined ? {} : { rate_limit_requests: rateLimitRequests }),
      };
      const row =
        Object.keys(changes).length === 0
          ? await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()
          : await db
              .updateTable('accounts')
              .set(changes)
              .where('id', '=', id)
              .returningAll()
              .executeTakeFirst();
      return row ? toAccount(row) : null;
    },

    async setAccountStatus(id, status) {
      const result = await db
        .updateTable('accounts')
        .set({ status })
        .where('id', '=', id)
        .where('status', '<>', status)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async ledgerPage(accountId, beforeId, limit) {
      let query = fromLedger(db)
        .leftJoin('messages', 'messages.id', 'credit_ledger.message_id')
        .select([
          'credit_ledger.id',
          'credit_ledger.delta',
          'credit_ledger.reason',
          'credit_ledger.balance_after',
          'credit_ledger.note',
          'credit_ledger.created_at',
          'messages.uuid',
        ])
        .where('credit_ledger.account_id', '=', accountId);
      if (beforeId !== null) query = query.where('credit_ledger.id', '<', beforeId);
      const rows = await query.orderBy('credit_ledger.id', 'desc').limit(limit).execute();
      return rows.map((row) => ({
        id: Number(row.id),
        delta: Number(row.delta),
        reason: row.reason as LedgerReason,
        messageUuid: row.uuid,
        balanceAfter: Number(row.balance_after),
        note: row.note,
        createdAt: Number(row.created_at),
      }));
    },

    async ledgerSum(accountId) {
      const row = await fromLedger(db)
        .select(sql<number>`coalesce(sum(delta), 0)`.as('total'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    async nextRefNo(accountId) {
      const row = await db
        .updateTable('accounts')
        .set({ next_ref_no: sql`next_ref_no + 1` })
        .where('id', '=', accountId)
        .returning('next_ref_no')
        .executeTakeFirstOrThrow();
      return row.next_ref_no - 1;
    },
  };
}
