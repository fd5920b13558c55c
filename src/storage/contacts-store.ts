import type { BlocklistStore } from '../domain/contacts/blocklist-store.js';
import type { ContactsStore, NumberPageQuery } from '../domain/contacts/contacts-store.js';
import type { TemplateStore } from '../domain/templates/template-store.js';
import type { Db } from './schema.js';

/** What the console's contact groups, templates and blocklist pages change and page through. */
type ConsoleListsStore = Omit<
  ContactsStore,
  | 'createContactGroup'
  | 'findContactGroup'
  | 'listContactGroups'
  | 'addContacts'
  | 'contactNumbers'
  | 'contactGroupTally'
> &
  Pick<TemplateStore, 'updateTemplate' | 'deleteTemplate'> &
  Pick<BlocklistStore, 'blocklistPage' | 'removeFromBlocklist'>;

const DELETE_BATCH = 500;

/** A `LIKE` pattern for a run of digits anywhere in the number; null: every number. */
function numberPattern(query: NumberPageQuery): string | null {
  return query.search === null || query.search === '' ? null : `%${query.search}%`;
}

export function contactsStore(db: Db): ConsoleListsStore {
  return {
    async renameContactGroup(groupId, name) {
      await db.updateTable('contact_groups').set({ name }).where('id', '=', groupId).execute();
    },

    async deleteContactGroup(groupId) {
      const result = await db
        .deleteFrom('contacts')
        .where('group_id', '=', groupId)
        .executeTakeFirst();
      await db.deleteFrom('contact_groups').where('id', '=', groupId).execute();
      return Number(result.numDeletedRows);
    },

    async contactCount(groupId) {
      const row = await db
        .selectFrom('contacts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('group_id', '=', groupId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async contactPage(groupId, query) {
      const pattern = numberPattern(query);
      let base = db.selectFrom('contacts').where('group_id', '=', groupId);
      if (pattern !== null) base = base.where('msisdn', 'like', pattern);
      const [rows, count] = await Promise.all([
        base.select('msisdn').orderBy('msisdn').limit(query.limit).offset(query.offset).execute(),
        base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map((row) => row.msisdn), total: Number(count.n) };
    },

    async removeContacts(groupId, msisdns) {
      let removed = 0;
      for (let i = 0; i < msisdns.length; i += DELETE_BATCH) {
        const result = await db
          .deleteFrom('contacts')
          .where('group_id', '=', groupId)
          .where('msisdn', 'in', msisdns.slice(i, i + DELETE_BATCH))
          .executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
      return removed;
    },

    async updateTemplate(templateId, { name, body }) {
      const row = await db
        .updateTable('templates')
        .set({ name, body })
        .where('id', '=', templateId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, accountId: row.account_id, name: row.name, body: row.body };
    },

    async deleteTemplate(templateId) {
      await db.deleteFrom('templates').where('id', '=', templateId).execute();
    },

    async blocklistPage(scopeAccountId, query) {
      const pattern = numberPattern(query);
      let base = db.selectFrom('blocklist').where('scope_account_id', '=', scopeAccountId);
      if (pattern !== null) base = base.where('msisdn', 'like', pattern);
      const [rows, count] = await Promise.all([
        base
          .select(['msisdn', 'created_at'])
          .orderBy('msisdn')
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        items: rows.map((row) => ({ msisdn: row.msisdn, createdAt: Number(row.created_at) })),
        total: Number(count.n),
      };
    },

    async removeFromBlocklist(scopeAccountId, msisdns) {
      let removed = 0;
      for (let i = 0; i < msisdns.length; i += DELETE_BATCH) {
        const result = await db
          .deleteFrom('blocklist')
          .where('scope_account_id', '=', scopeAccountId)
          .where('msisdn', 'in', msisdns.slice(i, i + DELETE_BATCH))
          .executeTakeFirst();
        removed += Number(result.numDeletedRows);
      }
      return removed;
    },
  };
}
