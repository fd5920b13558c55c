import { sql } from 'kysely';
import type { Store } from '../domain/store.js';
import type { VisibleSender } from '../domain/senders/sender-store.js';
import type { Db } from './schema.js';
import { insertNumbers } from './insert-numbers.js';
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
  | 'listTemplates'
  | 'createContactGroup'
  | 'addContacts'
  | 'findContactGroup'
  | 'listContactGroups'
  | 'contactNumbers'
  | 'contactGroupTally'
  | 'addToBlocklist'
  | 'blockedNumbers'
>;

/** A member as imports write it; a group holding any other is read to be counted. */
const REGULAR = /^66[0-9]{9}$/;

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

    async listTemplates(accountId) {
      const rows = await db
        .selectFrom('templates')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        name: row.name,
        body: row.body,
      }));
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
      // Flagged before the rows are written, so whoever reads such a member reads the flag too.
      if (msisdns.some((msisdn) => !REGULAR.test(msisdn))) {
        await db
          .updateTable('contact_groups')
          .set({ irregular_members: 1 })
          .where('id', '=', groupId)
          .execute();
      }
      return insertNumbers(db, { table: 'contacts', groupId }, msisdns);
    },

    async findContactGroup(id) {
      const row = await db
        .selectFrom('contact_groups')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { id: row.id, accountId: row.account_id, name: row.name } : null;
    },

    async listContactGroups(accountId) {
      const rows = await db
        .selectFrom('contact_groups')
        .leftJoin('contacts', 'contacts.group_id', 'contact_groups.id')
        .select(['contact_groups.id', 'contact_groups.account_id', 'contact_groups.name'])
        .select((eb) => eb.fn.count<number | string>('contacts.msisdn').as('size'))
        .where('contact_groups.account_id', '=', accountId)
        .groupBy(['contact_groups.id', 'contact_groups.account_id', 'contact_groups.name'])
        .orderBy('contact_groups.name')
        .orderBy('contact_groups.id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        name: row.name,
        size: Number(row.size),
      }));
    },

    async contactNumbers(groupId) {
      const rows = await db
        .selectFrom('contacts')
        .select('msisdn')
        .where('group_id', '=', groupId)
        .execute();
      return rows.map((row) => row.msisdn);
    },

    async contactGroupTally(groupId, accountId) {
      const group = await db
        .selectFrom('contact_groups')
        .select((eb) => [
          'irregular_members',
          eb
            .selectFrom('contacts')
            .select(eb.fn.countAll().as('n'))
            .where('group_id', '=', groupId)
            .as('members'),
        ])
        .where('id', '=', groupId)
        .executeTakeFirst();
      if (!group || Number(group.irregular_members) !== 0) return null;
      // From the blocklist's side (it is the smaller): each entry, in its 66 form, looked up in
      // the group's primary key; a number blocked in both scopes or both forms counts once.
      const blocked = await db
        .selectFrom('blocklist')
        .innerJoin('contacts', (join) =>
          join
            .on('contacts.group_id', '=', groupId)
            .on(
              'contacts.msisdn',
              '=',
              sql<string>`CASE WHEN length(blocklist.msisdn) = 10 AND substr(blocklist.msisdn, 1, 1) = '0' THEN '66' || substr(blocklist.msisdn, 2) ELSE blocklist.msisdn END`,
            ),
        )
        .select(sql<number | string>`count(DISTINCT contacts.msisdn)`.as('n'))
        .where('blocklist.scope_account_id', 'in', [0, accountId])
        .executeTakeFirstOrThrow();
      return { members: Number(group.members), blocked: Number(blocked.n) };
    },

    addToBlocklist(scopeAccountId, msisdns, nowMs) {
      return insertNumbers(db, { table: 'blocklist', scope: scopeAccountId, nowMs }, msisdns);
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
