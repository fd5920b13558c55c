import { sql } from 'kysely';
import type { RecipientRecord, Store } from '../domain/ports.js';
import type { RecipientStatus } from '../domain/statuses.js';
import type { Db } from './schema.js';
import { containsPattern, toCompactList } from './rows.js';

type RecipientsStore = Pick<
  Store,
  'messageCounts' | 'setMessageCounts' | 'loadCompactList' | 'recipientRows' | 'countRecipientRows' | 'unmaterialisedMessages'
>;

export function recipientsStore(db: Db): RecipientsStore {
  return {
    async messageCounts(messageId) {
      const rows = await db.selectFrom('message_counts').select(['status', 'count']).where('message_id', '=', messageId).execute();
      return new Map(rows.map((row) => [row.status as RecipientStatus, row.count]));
    },

    async setMessageCounts(messageId, counts) {
      const rows = [...counts].filter(([, count]) => count > 0).map(([status, count]) => ({ message_id: messageId, status, count }));
      if (rows.length === 0) return;
      await db
        .insertInto('message_counts')
        .values(rows)
        .onConflict((oc) => oc.columns(['message_id', 'status']).doUpdateSet({ count: (eb) => eb.ref('excluded.count') }))
        .execute();
    },

    async loadCompactList(messageId) {
      const row = await db
        .selectFrom('messages')
        .select(['numbers', 'blocked_seqs', 'invalid_numbers'])
        .where('id', '=', messageId)
        .executeTakeFirstOrThrow();
      return toCompactList(row);
    },

    // Keyset page over the (message_id, seq) primary key, or the (message_id, status, seq)
    // index when a status is given.
    async recipientRows(messageId, { afterSeq, maxSeq, limit, status, search }) {
      let query = db
        .selectFrom('recipients')
        .select(['seq', 'msisdn', 'status', 'updated_at'])
        .where('message_id', '=', messageId)
        .where('seq', '>', afterSeq)
        .where('seq', '<=', maxSeq);
      if (status) query = query.where('status', '=', status);
      if (search) query = query.where('msisdn', 'like', sql<string>`${containsPattern(search)} ESCAPE '\\'`);
      const rows = await query.orderBy('seq').limit(limit).execute();
      return rows.map(
        (row): RecipientRecord => ({ seq: row.seq, msisdn: row.msisdn, status: row.status as RecipientStatus, updatedAt: row.updated_at }),
      );
    },

    async countRecipientRows(messageId, { maxSeq, status, search }) {
      let query = db
        .selectFrom('recipients')
        .select(sql<number>`count(*)`.as('n'))
        .where('message_id', '=', messageId)
        .where('seq', '<=', maxSeq);
      if (status) query = query.where('status', '=', status);
      if (search) query = query.where('msisdn', 'like', sql<string>`${containsPattern(search)} ESCAPE '\\'`);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async unmaterialisedMessages(limit) {
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'recipient_total', 'materialised_upto'])
        .where(sql<boolean>`materialised_upto < recipient_total`)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, recipientTotal: row.recipient_total, materialisedUpto: row.materialised_upto }));
    },
  };
}
