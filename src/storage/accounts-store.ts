import { sql } from 'kysely';
import type { Store } from '../domain/ports.js';
import type { Db } from './schema.js';
import { toAccount, toApiKey } from './rows.js';

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
  | 'ledgerSum'
  | 'nextRefNo'
>;

export function accountsStore(db: Db): AccountsStore {
  return {
    async createAccount({ name, pricePerPart = 1, nowMs }) {
      const row = await db
        .insertInto('accounts')
        .values({
          name,
          balance: 0,
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
        account: { status: account_status, rateLimitRequests: rate_limit_requests },
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

    async ledgerSum(accountId) {
      const row = await db
        .selectFrom('credit_ledger')
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
