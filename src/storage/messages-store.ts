import type { Store } from '../domain/store.js';
import type { Db } from './schema.js';
import { containsPattern, MESSAGE_COLUMNS, packNumbers, toMessage } from './rows.js';
import { sql } from 'kysely';

type MessagesStore = Pick<
  Store,
  | 'insertMessage'
  | 'findMessageByUuid'
  | 'listMessages'
  | 'cancelScheduledMessage'
  | 'releaseDueMessages'
  | 'claimIdempotencyKey'
  | 'saveIdempotentResponse'
  | 'findIdempotencyKey'
>;

export function messagesStore(db: Db): MessagesStore {
  return {
    async insertMessage(m) {
      const row = await db
        .insertInto('messages')
        .values({
          uuid: m.uuid,
          account_id: m.accountId,
          api_key_id: m.apiKeyId,
          ref_no: m.refNo,
          sender: m.sender,
          content: m.content,
          parts: m.parts,
          status: m.status,
          scheduled_at: m.scheduledAt,
          created_at: m.createdAt,
          updated_at: m.createdAt,
          completed_at: m.completedAt,
          requested_count: m.requestedCount,
          duplicate_count: m.duplicateCount,
          recipient_total: m.recipientTotal,
          valid_count: m.validCount,
          invalid_count: m.invalidCount,
          blocked_count: m.blockedCount,
          charged_count: m.chargedCount,
          price_per_part: m.pricePerPart,
          cost: m.cost,
          materialised_upto: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('message_recipient_lists')
        .values({
          message_id: row.id,
          numbers: packNumbers(m.recipients.numbers),
          blocked_seqs: JSON.stringify(m.recipients.blockedSeqs),
          invalid_numbers: JSON.stringify(m.recipients.invalid),
        })
        .execute();
      return row.id;
    },

    async findMessageByUuid(uuid) {
      const row = await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      return row ? toMessage(row) : null;
    },

    async listMessages(accountId, q) {
      let query = db.selectFrom('messages');
      if (accountId !== null) query = query.where('account_id', '=', accountId);
      if (q.status) query = query.where('status', '=', q.status);
      if (q.sender) query = query.where('sender', '=', q.sender);
      if (q.fromMs !== undefined) query = query.where('created_at', '>=', q.fromMs);
      if (q.toMs !== undefined) query = query.where('created_at', '<=', q.toMs);
      if (q.search) {
        const pattern = containsPattern(q.search);
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(content)`, 'like', sql`${pattern} ESCAPE '\\'`),
            eb(sql`lower(ref_no)`, 'like', sql`${pattern} ESCAPE '\\'`),
          ]),
        );
      }
      const rows = await query
        .select(MESSAGE_COLUMNS)
        .orderBy('id', 'desc')
        .limit(q.limit)
        .offset(q.offset)
        .execute();
      const counted = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return { items: rows.map(toMessage), total: Number(counted.n) };
    },

    async cancelScheduledMessage(messageId, nowMs) {
      const result = await db
        .updateTable('messages')
        .set({ status: 'cancelled', updated_at: nowMs, completed_at: nowMs })
        .where('id', '=', messageId)
        .where('status', '=', 'scheduled')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async releaseDueMessages(nowMs) {
      const rows = await db
        .updateTable('messages')
        .set({ status: 'pending', updated_at: nowMs })
        .where('status', '=', 'scheduled')
        .where('scheduled_at', '<=', nowMs)
        .returning(['id', 'account_id'])
        .execute();
      return rows.map((row) => ({ id: Number(row.id), accountId: Number(row.account_id) }));
    },

    // ON CONFLICT DO NOTHING: on PostgreSQL a concurrent claim of the same key waits for the
    // first transaction, then inserts nothing and reads the winner's committed row.
    async claimIdempotencyKey({ accountId, key, requestHash, nowMs }) {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          account_id: accountId,
          key,
          request_hash: requestHash,
          response_body: null,
          message_id: null,
          created_at: nowMs,
        })
        .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (inserted) return { claimed: true };
      const existing = await db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'response_body'])
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      return {
        claimed: false,
        requestHash: existing.request_hash,
        responseBody: existing.response_body,
      };
    },

    async findIdempotencyKey(accountId, key) {
      const row = await db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'response_body'])
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? { requestHash: row.request_hash, responseBody: row.response_body } : null;
    },

    async saveIdempotentResponse(accountId, key, messageId, body) {
      await db
        .updateTable('idempotency_keys')
        .set({ response_body: body, message_id: messageId })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .execute();
    },
  };
}
