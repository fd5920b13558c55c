// The webhook outbox rows that delivery writes (docs/adr/0049), in the transaction that changes
// the recipients: one `recipients.final` row per batch and account, never one per recipient,
// and a `message.completed` check for each message whose last pending recipient the batch made
// final, or whose last chunk a dispatcher released. An account without an enabled endpoint gets
// no row; with no enabled endpoint at all, PostgreSQL evaluates the uncorrelated EXISTS once and
// the rest of the statement reads nothing.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Tables } from './schema.js';
import { statement } from './statements.js';

const wantsWebhooks = (account: RawBuilder<unknown>) => sql`EXISTS (
    SELECT 1 FROM webhook_endpoints w WHERE w.account_id = ${account} AND w.enabled = 1)`;

const anyEndpoint = sql`EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled = 1)`;

/**
 * PostgreSQL: common table expressions to follow `upd` (the fold's write: message_id, seq,
 * status, msisdn and updated_at of each row written) and `counted` (the counters, returning
 * each one's new count). Each final recipient goes into the row whole (`FinalRecipient`): the
 * fan-out reads no recipient.
 */
export function outboxCtes(nowMs: unknown): RawBuilder<unknown> {
  return sql`hooked AS (
      INSERT INTO webhook_outbox (account_id, kind, payload, created_at)
      SELECT m.account_id, 'recipients.final',
        CAST(json_agg(json_build_array(u.message_id, u.seq, u.msisdn, u.status, u.updated_at))
          AS TEXT), CAST(${nowMs} AS BIGINT)
      FROM upd u JOIN messages m ON m.id = u.message_id
      WHERE ${anyEndpoint} AND u.status <> 'pending'
      GROUP BY m.account_id
      HAVING ${wantsWebhooks(sql`m.account_id`)}
    ), completing AS (
      INSERT INTO webhook_outbox (account_id, kind, payload, created_at)
      SELECT m.account_id, 'message.completed',
        CAST(json_build_object('messageId', m.id) AS TEXT), CAST(${nowMs} AS BIGINT)
      FROM counted c JOIN messages m ON m.id = c.message_id
      WHERE ${anyEndpoint} AND c.status = 'pending' AND c.count = 0
        AND ${wantsWebhooks(sql`m.account_id`)}
    )`;
}

/** The statements SQLite's delivery store and the chunks' release run. */
export function outboxStatements(db: Kysely<Tables>) {
  return {
    anyEndpoint: statement((_: Record<string, never>) =>
      sql<{ one: number }>`SELECT 1 AS one WHERE ${anyEndpoint}`.compile(db),
    ),
    /** `messageIds`: a JSON array; the account of each whose account has an enabled endpoint. */
    wantingAccounts: statement((p: { messageIds: string }) =>
      sql<{ id: number; account_id: number }>`SELECT m.id, m.account_id FROM messages m
        WHERE m.id IN (SELECT value FROM json_each(${p.messageIds}))
          AND ${wantsWebhooks(sql`m.account_id`)}`.compile(db),
    ),
    /** One account's `recipients.final` row; `payload` a JSON array of `FinalRecipient`s. */
    recipientsFinal: statement((p: { accountId: number; payload: string; nowMs: number }) =>
      db.insertInto('webhook_outbox').values({
        account_id: p.accountId,
        kind: 'recipients.final',
        payload: p.payload,
        created_at: p.nowMs,
      }),
    ),
    /** `messageIds`: a JSON array; those whose pending count is 0 get a check. */
    completedChecks: statement((p: { messageIds: string; nowMs: number }) =>
      sql`INSERT INTO webhook_outbox (account_id, kind, payload, created_at)
        SELECT m.account_id, 'message.completed', json_object('messageId', m.id),
          CAST(${p.nowMs} AS BIGINT)
        FROM messages m JOIN message_counts c ON c.message_id = m.id AND c.status = 'pending'
        WHERE m.id IN (SELECT value FROM json_each(${p.messageIds})) AND c.count = 0
          AND ${wantsWebhooks(sql`m.account_id`)}`.compile(db),
    ),
    /** A message a release finished: checked, as its last receipts may already be in. */
    finishedCheck: statement((p: { accountId: number; payload: string; nowMs: number }) =>
      sql`INSERT INTO webhook_outbox (account_id, kind, payload, created_at)
        SELECT CAST(${p.accountId} AS BIGINT), 'message.completed', CAST(${p.payload} AS TEXT),
          CAST(${p.nowMs} AS BIGINT)
        WHERE ${wantsWebhooks(sql`CAST(${p.accountId} AS BIGINT)`)}`.compile(db),
    ),
  };
}
