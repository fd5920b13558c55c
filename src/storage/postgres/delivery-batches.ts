// The batched statements of the PostgreSQL delivery store (delivery-store.ts): arrays passed
// whole (`unnest`), one row update per recipient, counters summed per (message, status).
import type pg from 'pg';
import {
  normaliseSmscId,
  smscIdForms,
  type AppliedReceipt,
  type PartOutcome,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import type { CountDeltas } from '../count-deltas.js';
import { autocommit, transaction } from './pg-transactions.js';

export type AcceptedOutcome = Extract<PartOutcome, { kind: 'accepted' }>;

/** One submission per SMSC id: ON CONFLICT DO UPDATE may not touch a row twice in a statement. */
function uniqueSubmissions(accepted: readonly AcceptedOutcome[]): AcceptedOutcome[] {
  const byId = new Map<string, AcceptedOutcome>();
  for (const o of accepted) byId.set(`${o.carrier}\u0000${normaliseSmscId(o.smscId)}`, o);
  return [...byId.values()].sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
}

/**
 * A batch of accepted parts only — the usual one — as ONE statement (data-modifying CTEs,
 * atomic without BEGIN and COMMIT): one round trip instead of five.
 */
export async function recordAcceptedAlone(
  pool: pg.Pool,
  accepted: readonly AcceptedOutcome[],
  nowMs: number,
): Promise<void> {
  if (accepted.length === 0) return;
  const rows = uniqueSubmissions(accepted);
  await autocommit(
    pool,
    `WITH v AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
         AS v(carrier, smsc_id, message_id, seq, part)
     ), ins AS (
       INSERT INTO submissions (carrier, smsc_id, message_id, seq, part, submitted_at)
       SELECT carrier, smsc_id, message_id, seq, part, $6::bigint FROM v
       ON CONFLICT (carrier, smsc_id) DO UPDATE SET message_id = excluded.message_id,
         seq = excluded.seq, part = excluded.part, submitted_at = excluded.submitted_at
     ), a AS (
       SELECT message_id, seq, bit_or(1::bigint << part::int) AS bits, count(*) AS n
       FROM v GROUP BY message_id, seq
     ), upd AS (
       UPDATE recipients r SET parts_accepted = r.parts_accepted | a.bits,
         attempts = r.attempts + a.n
       FROM a WHERE r.message_id = a.message_id AND r.seq = a.seq
     )
     UPDATE messages SET any_accepted = 1
     WHERE id IN (SELECT DISTINCT message_id FROM v) AND any_accepted = 0`,
    [
      rows.map((o) => o.carrier),
      rows.map((o) => normaliseSmscId(o.smscId)),
      rows.map((o) => o.messageId),
      rows.map((o) => o.seq),
      rows.map((o) => o.part),
      nowMs,
    ],
  );
}

/**
 * Final receipts only — the usual batch — as ONE statement: the submissions found are deleted,
 * their recipients moved on (success once every part is delivered, else the first failure) and
 * the counters with them; receipts whose submission is not there yet become orphans after.
 */
export async function applyReceiptsAlone(
  pool: pg.Pool,
  receipts: readonly ReceiptReport[],
  nowMs: number,
): Promise<AppliedReceipt[]> {
  if (receipts.length === 0) return [];
  const idx: number[] = [];
  const carriers: string[] = [];
  const ids: string[] = [];
  receipts.forEach((receipt, i) => {
    for (const id of smscIdForms(receipt.smscId)) {
      idx.push(i);
      carriers.push(receipt.carrier);
      ids.push(id);
    }
  });
  const { rows } = await autocommit<{ idx: number; submitted_at: number }>(
    pool,
    `WITH v AS (
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) AS v(idx, carrier, smsc_id)
     ), receipt AS (
       SELECT (ordinality - 1)::int AS idx, outcome, error
       FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS x(outcome, error)
     ), del AS (
       DELETE FROM submissions s USING v
       WHERE s.carrier = v.carrier AND s.smsc_id = v.smsc_id
       RETURNING v.idx, s.message_id, s.seq, s.part, s.submitted_at
     ), d AS (
       SELECT del.*, receipt.outcome, receipt.error FROM del JOIN receipt USING (idx)
     ), a AS (
       SELECT message_id, seq,
         bit_or(CASE WHEN outcome = 'success' THEN 1::bigint << part::int ELSE 0 END) AS bits,
         min(CASE WHEN outcome <> 'success' THEN outcome END) AS fail,
         min(CASE WHEN outcome <> 'success' THEN error END) AS error
       FROM d GROUP BY message_id, seq
     ), upd AS (
       UPDATE recipients r SET
         parts_delivered = r.parts_delivered | a.bits,
         status = CASE WHEN a.fail IS NOT NULL THEN a.fail
                       WHEN (r.parts_delivered | a.bits) = (1::bigint << m.parts::int) - 1
                       THEN 'success' ELSE r.status END,
         error = coalesce(a.error, r.error),
         updated_at = CASE WHEN a.fail IS NOT NULL
                             OR (r.parts_delivered | a.bits) = (1::bigint << m.parts::int) - 1
                           THEN $6::bigint ELSE r.updated_at END
       FROM a JOIN messages m ON m.id = a.message_id
       WHERE r.message_id = a.message_id AND r.seq = a.seq AND r.status = 'pending'
       RETURNING r.message_id, r.status
     ), moved AS (
       SELECT message_id, status, 1 AS delta FROM upd WHERE status <> 'pending'
       UNION ALL
       SELECT message_id, 'pending', -1 FROM upd WHERE status <> 'pending'
     ), counted AS (
       INSERT INTO message_counts (message_id, status, count)
       SELECT message_id, status, sum(delta) FROM moved
       GROUP BY message_id, status ORDER BY message_id, status
       ON CONFLICT (message_id, status) DO UPDATE SET count = message_counts.count + excluded.count
     )
     SELECT idx, submitted_at FROM d`,
    [idx, carriers, ids, receipts.map((r) => r.outcome), receipts.map((r) => r.error), nowMs],
  );
  const found = new Set<number>();
  const applied: AppliedReceipt[] = [];
  for (const row of rows) {
    found.add(row.idx);
    const receipt = receipts[row.idx]!;
    applied.push({
      carrier: receipt.carrier,
      outcome: receipt.outcome!,
      latencyMs: nowMs - row.submitted_at,
    });
  }
  const unmatched = receipts.filter((_, i) => !found.has(i));
  if (unmatched.length > 0) {
    await transaction(pool, (client) => keepOrphans(client, unmatched, nowMs));
  }
  return applied;
}

export async function recordAccepted(
  client: pg.PoolClient,
  outcomes: readonly PartOutcome[],
  nowMs: number,
): Promise<void> {
  const accepted = outcomes.filter((o) => o.kind === 'accepted');
  if (accepted.length === 0) return;
  await client.query(
    `INSERT INTO submissions (carrier, smsc_id, message_id, seq, part, submitted_at)
     SELECT v.*, $6::bigint FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
       v(carrier, smsc_id, message_id, seq, part)
     ON CONFLICT (carrier, smsc_id) DO UPDATE SET message_id = excluded.message_id,
       seq = excluded.seq, part = excluded.part, submitted_at = excluded.submitted_at`,
    [
      accepted.map((o) => o.carrier),
      accepted.map((o) => normaliseSmscId(o.smscId)),
      accepted.map((o) => o.messageId),
      accepted.map((o) => o.seq),
      accepted.map((o) => o.part),
      nowMs,
    ],
  );
  const bits = new Map<string, { messageId: number; seq: number; bits: number; n: number }>();
  for (const o of accepted) {
    const key = `${o.messageId}:${o.seq}`;
    const entry = bits.get(key) ?? { messageId: o.messageId, seq: o.seq, bits: 0, n: 0 };
    entry.bits |= 2 ** o.part;
    entry.n += 1;
    bits.set(key, entry);
  }
  const entries = [...bits.values()].sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
  await client.query(
    `UPDATE recipients r SET parts_accepted = r.parts_accepted | v.bits, attempts = r.attempts + v.n
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) v(message_id, seq, bits, n)
     WHERE r.message_id = v.message_id AND r.seq = v.seq`,
    [
      entries.map((e) => e.messageId),
      entries.map((e) => e.seq),
      entries.map((e) => e.bits),
      entries.map((e) => e.n),
    ],
  );
  await client.query(
    'UPDATE messages SET any_accepted = 1 WHERE id = ANY($1::bigint[]) AND any_accepted = 0',
    [[...new Set(entries.map((e) => e.messageId))]],
  );
}

export async function recordRetries(
  client: pg.PoolClient,
  outcomes: readonly PartOutcome[],
  nowMs: number,
): Promise<void> {
  const retries = firstPerRecipient(outcomes.filter((o) => o.kind === 'retry'));
  if (retries.length === 0) return;
  await client.query(
    `UPDATE recipients r SET next_attempt_at = v.next_attempt_at,
       first_attempt_at = coalesce(r.first_attempt_at, $5), error = v.error, attempts = r.attempts + 1
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[]) v(message_id, seq, next_attempt_at, error)
     WHERE r.message_id = v.message_id AND r.seq = v.seq AND r.status = 'pending'`,
    [
      retries.map((o) => o.messageId),
      retries.map((o) => o.seq),
      retries.map((o) => o.nextAttemptAt),
      retries.map((o) => o.error),
      nowMs,
    ],
  );
}

export async function keepOrphans(
  client: pg.PoolClient,
  receipts: readonly ReceiptReport[],
  nowMs: number,
): Promise<void> {
  await client.query(
    `INSERT INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at)
     SELECT v.*, $5::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) v
     ON CONFLICT (carrier, smsc_id) DO UPDATE SET outcome = excluded.outcome,
       error = excluded.error, received_at = excluded.received_at`,
    [
      receipts.map((r) => r.carrier),
      receipts.map((r) => normaliseSmscId(r.smscId)),
      receipts.map((r) => r.outcome ?? 'pending'),
      receipts.map((r) => r.error),
      nowMs,
    ],
  );
}

export async function applyCounts(client: pg.PoolClient, counts: CountDeltas): Promise<void> {
  const entries = counts.entries();
  if (entries.length === 0) return;
  await client.query(
    `INSERT INTO message_counts (message_id, status, count)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])
     ON CONFLICT (message_id, status) DO UPDATE SET count = message_counts.count + excluded.count`,
    [entries.map((e) => e.messageId), entries.map((e) => e.status), entries.map((e) => e.delta)],
  );
}

/** One outcome per recipient (the first), sorted so concurrent writers lock rows in one order. */
export function firstPerRecipient<T extends { messageId: number; seq: number }>(items: T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const key = `${item.messageId}:${item.seq}`;
    if (!seen.has(key)) seen.set(key, item);
  }
  return [...seen.values()].sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
}

export function uniqueRecipients<T extends { message_id: number; seq: number }>(rows: T[]): T[] {
  const seen = new Map<string, T>();
  for (const row of rows) seen.set(`${row.message_id}:${row.seq}`, row);
  return [...seen.values()].sort((a, b) => a.message_id - b.message_id || a.seq - b.seq);
}
