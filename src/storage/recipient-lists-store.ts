import type { RecipientListsStore } from '../domain/recipients/recipient-lists-store.js';
import type { Db } from './schema.js';
import { packNumbers, unpackNumbers } from './rows.js';

/** Uploaded lists, stored as messages store their compact lists (rows.ts's packing). */
export function recipientListsStore(db: Db): RecipientListsStore {
  return {
    async insertRecipientList({ uuid, accountId, numbers, createdAt, expiresAt }) {
      await db
        .insertInto('recipient_lists')
        .values({
          uuid,
          account_id: accountId,
          numbers: packNumbers(numbers.valid),
          invalid_numbers: JSON.stringify(numbers.invalid),
          requested_count: numbers.requested,
          duplicate_count: numbers.duplicates,
          created_at: createdAt,
          expires_at: expiresAt,
        })
        .execute();
    },

    async trimRecipientLists(accountId, keep) {
      const newest = db
        .selectFrom('recipient_lists')
        .select('id')
        .where('account_id', '=', accountId)
        .orderBy('id', 'desc')
        .limit(keep);
      const result = await db
        .deleteFrom('recipient_lists')
        .where('account_id', '=', accountId)
        .where('id', 'not in', newest)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async findRecipientList(uuid) {
      const row = await db
        .selectFrom('recipient_lists')
        .select(['uuid', 'account_id', 'expires_at'])
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      return row
        ? { uuid: row.uuid, accountId: Number(row.account_id), expiresAt: Number(row.expires_at) }
        : null;
    },

    async loadRecipientListNumbers(uuid) {
      const row = await db
        .selectFrom('recipient_lists')
        .select(['numbers', 'invalid_numbers', 'requested_count', 'duplicate_count'])
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      if (!row) return null;
      return {
        valid: unpackNumbers(row.numbers),
        invalid: JSON.parse(row.invalid_numbers) as string[],
        requested: Number(row.requested_count),
        duplicates: Number(row.duplicate_count),
      };
    },

    async deleteRecipientList(uuid, accountId) {
      const result = await db
        .deleteFrom('recipient_lists')
        .where('uuid', '=', uuid)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteExpiredRecipientLists(nowMs, limit) {
      const result = await db
        .deleteFrom('recipient_lists')
        .where(
          'id',
          'in',
          db
            .selectFrom('recipient_lists')
            .select('id')
            .where('expires_at', '<=', nowMs)
            .orderBy('expires_at')
            .limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
