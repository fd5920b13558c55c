import type { Store, VisibleSender } from '../domain/ports.js';
import type { Db } from './schema.js';
import { toSender } from './rows.js';

type CatalogueStore = Pick<
  Store,
  | 'createSender'
  | 'shareSender'
  | 'findSenderByName'
  | 'isSenderSharedWith'
  | 'listVisibleSenders'
  | 'createTemplate'
  | 'findTemplate'
  | 'createContactGroup'
  | 'addContacts'
  | 'findContactGroup'
  | 'contactNumbers'
  | 'addToBlocklist'
  | 'blockedNumbers'
>;

const INSERT_BATCH = 500;

export function catalogueStore(db: Db): CatalogueStore {
  return {
    async createSender({ accountId, name, status, nowMs }) {
      const row = await db
        .insertInto('senders')
        .values({
          account_id: accountId,
          name,
          status,
          note: null,
          created_at: nowMs,
          updated_at: nowMs,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSender(row);
    },

    async shareSender(senderId, accountId, nowMs) {
      await db
        .insertInto('sender_shares')
        .values({ sender_id: senderId, account_id: accountId, created_at: nowMs })
        .onConflict((oc) => oc.columns(['sender_id', 'account_id']).doNothing())
        .execute();
    },

    async findSenderByName(name) {
      const row = await db
        .selectFrom('senders')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst();
      return row ? toSender(row) : null;
    },

    async isSenderSharedWith(senderId, accountId) {
      const row = await db
        .selectFrom('sender_shares')
        .select('sender_id')
        .where('sender_id', '=', senderId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async listVisibleSenders(accountId) {
      const owned = await db
        .selectFrom('senders')
        .selectAll()
        .where('account_id', '=', accountId)
        .execute();
      const shared = await db
        .selectFrom('senders')
        .innerJoin('sender_shares', 'sender_shares.sender_id', 'senders.id')
        .selectAll('senders')
        .where('sender_shares.account_id', '=', accountId)
        .execute();
      const visible: VisibleSender[] = [
        ...owned.map((row) => ({ ...toSender(row), shared: false })),
        ...shared.map((row) => ({ ...toSender(row), shared: true })),
      ];
      return visible.sort((a, b) => a.name.localeCompare(b.name));
    },

    async createTemplate({ accountId, name, body, nowMs }) {
      const row = await db
        .insertInto('templates')
        .values({ account_id: accountId, name, body, created_at: nowMs })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, accountId: row.account_id, name: row.name, body: row.body };
    },

    async findTemplate(id) {
      const row = await db
        .selectFrom('templates')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { id: row.id, accountId: row.account_id, name: row.name, body: row.body } : null;
    },

    async createContactGroup({ accountId, name, nowMs }) {
      const row = await db
        .insertInto('contact_groups')
        .values({ account_id: accountId, name, created_at: nowMs })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, accountId: row.account_id, name: row.name };
    },

    async addContacts(groupId, msisdns) {
      let added = 0;
      for (let i = 0; i < msisdns.length; i += INSERT_BATCH) {
        const batch = msisdns
          .slice(i, i + INSERT_BATCH)
          .map((msisdn) => ({ group_id: groupId, msisdn }));
        const result = await db
          .insertInto('contacts')
          .values(batch)
          .onConflict((oc) => oc.columns(['group_id', 'msisdn']).doNothing())
          .executeTakeFirst();
        added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      return added;
    },

    async findContactGroup(id) {
      const row = await db
        .selectFrom('contact_groups')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { id: row.id, accountId: row.account_id, name: row.name } : null;
    },

    async contactNumbers(groupId) {
      const rows = await db
        .selectFrom('contacts')
        .select('msisdn')
        .where('group_id', '=', groupId)
        .execute();
      return rows.map((row) => row.msisdn);
    },

    async addToBlocklist(scopeAccountId, msisdns, nowMs) {
      let added = 0;
      for (let i = 0; i < msisdns.length; i += INSERT_BATCH) {
        const batch = msisdns
          .slice(i, i + INSERT_BATCH)
          .map((msisdn) => ({ scope_account_id: scopeAccountId, msisdn, created_at: nowMs }));
        const result = await db
          .insertInto('blocklist')
          .values(batch)
          .onConflict((oc) => oc.columns(['scope_account_id', 'msisdn']).doNothing())
          .executeTakeFirst();
        added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      return added;
    },

    async blockedNumbers(accountId) {
      const rows = await db
        .selectFrom('blocklist')
        .select('msisdn')
        .where('scope_account_id', 'in', [0, accountId])
        .execute();
      return new Set(rows.map((row) => row.msisdn));
    },
  };
}
