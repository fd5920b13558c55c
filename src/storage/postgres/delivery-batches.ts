// The batched statements of the PostgreSQL delivery store (delivery-store.ts): arrays passed
// whole (`unnest`), recipients read and locked in (message, seq) order (with the submissions
// receipts match, in the same statement), folded by the domain's fold (the same as SQLite's),
// and everything a batch changes written in ONE statement. SQLite's twin reads and writes a row
// at a time with prepared statements instead: round trips cost nothing in process.
import type pg from 'pg';
import {
  normaliseSmscId,
  smscIdForms,
  type PartOutcome,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import {
  EventsByRecipient,
  lastPerKey,
  matchReceipts,
  type MatchedReceipts,
  type Submission,
} from '../../domain/delivery/fold-delivery.js';
import type { CountDeltas } from '../count-deltas.js';
import {
  foldRecipients,
  DELIVERY_STATE_COLUMNS,
  recipientKey,
  SELECT_DELIVERY_STATE,
  type ChangedRecipient,
  type DeliveryStateRow,
} from '../delivery-state-rows.js';

export type AcceptedOutcome = Extract<PartOutcome, { kind: 'accepted' }>;

/** Reads and locks the recipients of `events`, folds them; returns the rows that changed. */
export async function foldLocked(
  client: pg.PoolClient,
  events: EventsByRecipient,
  nowMs: number,
  counts: CountDeltas,
): Promise<ChangedRecipient[]> {
  if (events.size === 0) return [];
  const groups = events.sorted();
  const { rows } = await client.query<DeliveryStateRow>(
    `${SELECT_DELIVERY_STATE}
     JOIN unnest($1::bigint[], $2::bigint[]) v(message_id, seq)
       ON r.message_id = v.message_id AND r.seq = v.seq
     ORDER BY r.message_id, r.seq FOR UPDATE OF r`,
    [groups.map((g) => g.messageId), groups.map((g) => g.seq)],
  );
  const byKey = new Map(rows.map((row) => [recipientKey(row.message_id, row.seq), row]));
  return foldRecipients(groups, (m, s) => byKey.get(recipientKey(m, s)), nowMs, counts);
}

/**
 * Matches final receipts to their submissions and folds them into their recipients, reading
 * both in ONE locked statement: the submissions every id form of the batch names, each joined
 * with its recipient's state (a recipient row is never deleted), locked in (message, seq)
 * order as `foldLocked` locks. Receipts are taken in batch order, as SQLite does one at a time.
 */
export async function matchAndFoldLocked(
  client: pg.PoolClient,
  receipts: readonly ReceiptReport[],
  nowMs: number,
  counts: CountDeltas,
): Promise<MatchedReceipts & { recipients: ChangedRecipient[] }> {
  const carriers: string[] = [];
  const ids: string[] = [];
  for (const receipt of receipts) {
    if (receipt.outcome === null) continue;
    for (const id of smscIdForms(receipt.smscId)) {
      carriers.push(receipt.carrier);
      ids.push(id);
    }
  }
  const found = new Map<string, Submission>();
  const states = new Map<string, DeliveryStateRow>();
  if (carriers.length > 0) {
    const { rows } = await client.query<
      DeliveryStateRow & { carrier: string; smsc_id: string; part: number; submitted_at: number }
    >(
      `SELECT ${DELIVERY_STATE_COLUMNS}, s.carrier, s.smsc_id, s.part, s.submitted_at
       FROM submissions s
       JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) v(carrier, smsc_id)
         ON s.carrier = v.carrier AND s.smsc_id = v.smsc_id
       JOIN recipients r ON r.message_id = s.message_id AND r.seq = s.seq
       JOIN messages m ON m.id = r.message_id
       ORDER BY r.message_id, r.seq, s.carrier, s.smsc_id FOR UPDATE OF r, s`,
      [carriers, ids],
    );
    for (const row of rows) {
      found.set(submissionKey(row.carrier, row.smsc_id), {
        carrier: row.carrier,
        smscId: row.smsc_id,
        messageId: row.message_id,
        seq: row.seq,
        part: row.part,
        submittedAt: row.submitted_at,
      });
      states.set(recipientKey(row.message_id, row.seq), row);
    }
  }
  const result = matchReceipts(receipts, (c, id) => found.get(submissionKey(c, id)), smscIdForms);
  const recipients = foldRecipients(
    receiptEvents(result.matched).sorted(),
    (m, seq) => states.get(recipientKey(m, seq)),
    nowMs,
    counts,
  );
  return { ...result, recipients };
}

/** The receipt events of matched receipts, by recipient. */
function receiptEvents(matched: MatchedReceipts['matched']): EventsByRecipient {
  const events = new EventsByRecipient();
  for (const { receipt, submission } of matched) {
    events.add(submission.messageId, submission.seq, {
      kind: 'receipt',
      part: submission.part,
      outcome: receipt.outcome!,
      error: receipt.error,
    });
  }
  return events;
}

function submissionKey(carrier: string, smscId: string): string {
  return `${carrier}\u0000${smscId}`;
}

/** Everything one batch changes; each part may be empty. */
export interface BatchWrites {
  /** Accepted parts whose submissions are stored (a reused SMSC id: the last one wins). */
  readonly accepted?: readonly AcceptedOutcome[];
  readonly deleteSubmissions?: readonly { carrier: string; smscId: string }[];
  readonly recipients?: readonly ChangedRecipient[];
  /** Receipts kept as orphans until their submission comes (the last of one id wins). */
  readonly orphans?: readonly ReceiptReport[];
  readonly deleteOrphans?: readonly { carrier: string; smscId: string }[];
  readonly counts?: CountDeltas;
}

/** Writes a batch in ONE statement (data-modifying CTEs): atomic, and one round trip. */
export async function writeBatch(
  client: pg.PoolClient,
  writes: BatchWrites,
  nowMs: number,
): Promise<void> {
  const accepted = lastPerKey(writes.accepted ?? [], (o) =>
    submissionKey(o.carrier, normaliseSmscId(o.smscId)),
  ).sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
  const deleted = writes.deleteSubmissions ?? [];
  const recipients = writes.recipients ?? [];
  const orphans = lastPerKey(writes.orphans ?? [], (r) =>
    submissionKey(r.carrier, normaliseSmscId(r.smscId)),
  );
  const deletedOrphans = writes.deleteOrphans ?? [];
  const counts = writes.counts?.entries() ?? [];
  if (
    accepted.length +
      deleted.length +
      recipients.length +
      orphans.length +
      deletedOrphans.length ===
      0 &&
    counts.length === 0
  )
    return;
  const states = recipients.map((r) => r.state);
  await client.query(
    `WITH ins AS (
       INSERT INTO submissions (carrier, smsc_id, message_id, seq, part, submitted_at)
       SELECT v.*, $1::bigint
       FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
         v(carrier, smsc_id, message_id, seq, part)
       ON CONFLICT (carrier, smsc_id) DO UPDATE SET message_id = excluded.message_id,
         seq = excluded.seq, part = excluded.part, submitted_at = excluded.submitted_at
     ), marked AS (
       UPDATE messages SET any_accepted = 1
       WHERE id = ANY($28::bigint[]) AND any_accepted = 0
     ), del AS (
       DELETE FROM submissions s USING unnest($7::text[], $8::text[]) v(carrier, smsc_id)
       WHERE s.carrier = v.carrier AND s.smsc_id = v.smsc_id
     ), upd AS (
       UPDATE recipients r SET status = v.status, error = v.error, attempts = v.attempts,
         parts_accepted = v.parts_accepted, parts_delivered = v.parts_delivered,
         next_attempt_at = v.next_attempt_at, first_attempt_at = v.first_attempt_at,
         updated_at = v.updated_at
       FROM unnest($9::bigint[], $10::bigint[], $11::text[], $12::text[], $13::bigint[],
         $14::bigint[], $15::bigint[], $16::bigint[], $17::bigint[], $18::bigint[])
         v(message_id, seq, status, error, attempts, parts_accepted, parts_delivered,
           next_attempt_at, first_attempt_at, updated_at)
       WHERE r.message_id = v.message_id AND r.seq = v.seq
     ), orphaned AS (
       INSERT INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at)
       SELECT v.*, $1::bigint FROM unnest($19::text[], $20::text[], $21::text[], $22::text[]) v
       ON CONFLICT (carrier, smsc_id) DO UPDATE SET outcome = excluded.outcome,
         error = excluded.error, received_at = excluded.received_at
     ), unorphaned AS (
       DELETE FROM orphan_receipts o USING unnest($23::text[], $24::text[]) v(carrier, smsc_id)
       WHERE o.carrier = v.carrier AND o.smsc_id = v.smsc_id
     )
     INSERT INTO message_counts (message_id, status, count)
     SELECT * FROM unnest($25::bigint[], $26::text[], $27::bigint[])
     ON CONFLICT (message_id, status) DO UPDATE SET count = message_counts.count + excluded.count`,
    [
      nowMs,
      accepted.map((o) => o.carrier),
      accepted.map((o) => normaliseSmscId(o.smscId)),
      accepted.map((o) => o.messageId),
      accepted.map((o) => o.seq),
      accepted.map((o) => o.part),
      deleted.map((d) => d.carrier),
      deleted.map((d) => d.smscId),
      recipients.map((r) => r.messageId),
      recipients.map((r) => r.seq),
      states.map((s) => s.status),
      states.map((s) => s.error),
      states.map((s) => s.attempts),
      states.map((s) => s.partsAccepted.toString()),
      states.map((s) => s.partsDelivered.toString()),
      states.map((s) => s.nextAttemptAt),
      states.map((s) => s.firstAttemptAt),
      states.map((s) => s.updatedAt),
      orphans.map((r) => r.carrier),
      orphans.map((r) => normaliseSmscId(r.smscId)),
      orphans.map((r) => r.outcome ?? 'pending'),
      orphans.map((r) => r.error),
      deletedOrphans.map((o) => o.carrier),
      deletedOrphans.map((o) => o.smscId),
      counts.map((e) => e.messageId),
      counts.map((e) => e.status),
      counts.map((e) => e.delta),
      [...new Set((writes.accepted ?? []).map((o) => o.messageId))],
    ],
  );
}
