import { sql, type SqlBool } from 'kysely';
import type { RecipientRecord } from '../domain/recipients/recipient-store.js';
import type { Store } from '../domain/store.js';
import type { RecipientStatus } from '../domain/statuses.js';
import type { Db } from './schema.js';
import { containsPattern, toCompactList } from './rows.js';

type RecipientsStore = Pick<
  Store,
  | 'setMessageCounts'
  | 'loadCompactList'
  | 'recipientRows'
  | 'countRecipientRows'
  | 'recipientsBySeq'
  | 'messageCountsByUuid'
  | 'recipientPageByUuid'
  | 'unmaterialisedMessages'
>;

export function recipientsStore(db: Db): RecipientsStore {
  return {
    async setMessageCounts(messageId, counts) {
      const rows = [...counts]
        .filter(([, count]) => count > 0)
        .map(([status, count]) => ({ message_id: messageId, status, count }));
      if (rows.length === 0) return;
      await db
        .insertInto('message_counts')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['message_id', 'status'])
            .doUpdateSet({ count: (eb) => eb.ref('excluded.count') }),
        )
        .execute();
    },

    async loadCompactList(messageId) {
      const row = await db
        .selectFrom('message_recipient_lists')
        .select(['numbers', 'blocked_seqs', 'invalid_numbers'])
        .where('message_id', '=', messageId)
        .executeTakeFirstOrThrow();
      return toCompactList(row);
    },

    // Keyset page over the (message_id, seq) primary key, or the (message_id, status, seq)
    // index when a status is given. Both shapes are chosen so that no plan can touch more than
    // the page, whatever the planner believes (bench/accept-and-page.bench.ts measured both):
    // - Unfiltered, the range stops at afterSeq + limit: rows are dense (materialisation writes
    //   every seq up to materialised_upto), so the page lies within it. Left open, PostgreSQL —
    //   with no statistics yet for a new message's rows — estimated 3 rows for the whole
    //   message and chose a bitmap scan + sort over all of them (110 ms at 200k rows).
    // - With a status, the seqs come from a subquery that the status index covers. Asked
    //   directly, SQLite prefers the covering primary key's seq range and filters status row
    //   by row: 100–250 ms for a rare status on a 2M-row message, 0.2 ms this way.
    async recipientRows(messageId, { afterSeq, maxSeq, limit, status, search }) {
      const upto = status || search ? maxSeq : Math.min(maxSeq, afterSeq + limit);
      let matching = db
        .selectFrom('recipients')
        .where('message_id', '=', messageId)
        .where('seq', '>', afterSeq)
        .where('seq', '<=', upto);
      if (status) matching = matching.where('status', '=', status);
      if (search) matching = matching.where(msisdnContains(search));
      const columns = ['seq', 'msisdn', 'status', 'updated_at'] as const;
      const rows = status
        ? await db
            .selectFrom('recipients')
            .select(columns)
            .where('message_id', '=', messageId)
            .where('seq', 'in', matching.select('seq').orderBy('seq').limit(limit))
            .orderBy('seq')
            .execute()
        : await matching.select(columns).orderBy('seq').limit(limit).execute();
      return rows.map((row): RecipientRecord => ({
        seq: row.seq,
        msisdn: row.msisdn,
        status: row.status as RecipientStatus,
        updatedAt: row.updated_at,
      }));
    },

    async countRecipientRows(messageId, { maxSeq, status, search }) {
      let query = db
        .selectFrom('recipients')
        .select(sql<number>`count(*)`.as('n'))
        .where('message_id', '=', messageId)
        .where('seq', '<=', maxSeq);
      if (status) query = query.where('status', '=', status);
      if (search) query = query.where(msisdnContains(search));
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async messageCountsByUuid(uuid) {
      const rows = await db
        .selectFrom('message_counts')
        .innerJoin('messages', 'messages.id', 'message_counts.message_id')
        .select(['message_counts.status', 'message_counts.count'])
        .where('messages.uuid', '=', uuid)
        .execute();
      return new Map(rows.map((row) => [row.status as RecipientStatus, row.count]));
    },

    // One statement, so the rows and the materialised_upto they stop at come from one snapshot;
    // the LEFT JOIN answers the message's row even when no recipient row is in range.
    async recipientPageByUuid(uuid, afterSeq, limit) {
      const rows = await db
        .selectFrom('messages as m')
        .leftJoin('recipients as r', (join) =>
          join
            .onRef('r.message_id', '=', 'm.id')
            .on('r.seq', '>', afterSeq)
            .on('r.seq', '<=', afterSeq + limit)
            .onRef('r.seq', '<=', 'm.materialised_upto'),
        )
        .select(['m.materialised_upto', 'r.seq', 'r.msisdn', 'r.status', 'r.updated_at'])
        .where('m.uuid', '=', uuid)
        .orderBy('r.seq')
        .limit(limit)
        .execute();
      if (rows.length === 0) return null;
      return {
        materialisedUpto: rows[0]!.materialised_upto,
        rows: rows
          .filter((row) => row.seq !== null)
          .map((row): RecipientRecord => ({
            seq: row.seq!,
            msisdn: row.msisdn!,
            status: row.status as RecipientStatus,
            updatedAt: row.updated_at,
          })),
      };
    },

    async recipientsBySeq(messageId, seqs) {
      if (seqs.length === 0) return [];
      const rows = await db
        .selectFrom('recipients')
        .select(['seq', 'msisdn', 'status', 'updated_at'])
        .where('message_id', '=', messageId)
        .where('seq', 'in', [...seqs])
        .orderBy('seq')
        .execute();
      return rows.map((row): RecipientRecord => ({
        seq: row.seq,
        msisdn: row.msisdn,
        status: row.status as RecipientStatus,
        updatedAt: row.updated_at,
      }));
    },

    async unmaterialisedMessages(limit) {
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'recipient_total', 'materialised_upto', 'created_at'])
        .where(sql<boolean>`materialised_upto < recipient_total`)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        recipientTotal: row.recipient_total,
        materialisedUpto: row.materialised_upto,
        createdAt: row.created_at,
      }));
    },
  };
}

/**
 * The number holds `search`, case-insensitively as the compact list's scan matches. Valid
 * numbers are digits: only a search with letters (for an invalid entry's text) pays for lower().
 */
function msisdnContains(search: string) {
  const column = /\p{L}/u.test(search) ? sql`lower(msisdn)` : sql`msisdn`;
  return sql<SqlBool>`${column} like ${containsPattern(search)} ESCAPE '\\'`;
}
