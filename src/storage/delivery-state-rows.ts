// What both delivery stores share around the domain's fold (domain/delivery/fold-delivery.ts):
// the portable SQL that reads a recipient's delivery state, the row it is read into, and the
// folding of a batch's events into the rows to write and the counter deltas.
import { sql, type Kysely } from 'kysely';
import type { AppliedReceipt, ReceiptReport } from '../domain/delivery/delivery-store.js';
import {
  foldDelivery,
  type MatchedReceipts,
  type RecipientDeliveryState,
  type RecipientEvents,
} from '../domain/delivery/fold-delivery.js';
import { toPartMask } from '../domain/delivery/part-mask.js';
import type { RecipientStatus } from '../domain/statuses.js';
import type { CountDeltas } from './count-deltas.js';
import type { Tables } from './schema.js';
import { statement } from './statements.js';

/**
 * Reads recipients' delivery state and their message's part count (`recipients as r`, `messages
 * as m`); masks as text, so that no driver rounds a 64-bit value through a double. Each engine
 * adds which rows (one on SQLite, an array of keys and row locks on PostgreSQL).
 */
export function selectDeliveryState(db: Kysely<Tables>) {
  return db
    .selectFrom('recipients as r')
    .innerJoin('messages as m', 'm.id', 'r.message_id')
    .select([
      'r.message_id',
      'r.seq',
      'r.status',
      'r.error',
      'r.attempts',
      sql<string>`CAST(r.parts_accepted AS TEXT)`.as('parts_accepted'),
      sql<string>`CAST(r.parts_delivered AS TEXT)`.as('parts_delivered'),
      'r.next_attempt_at',
      'r.first_attempt_at',
      'r.updated_at',
      'm.parts',
    ]);
}

export interface DeliveryStateRow {
  message_id: number;
  seq: number;
  status: string;
  error: string | null;
  attempts: number;
  parts_accepted: string;
  parts_delivered: string;
  next_attempt_at: number;
  first_attempt_at: number | null;
  updated_at: number;
  parts: number;
}

/** A recipient whose row the fold changed, with its new state. */
export interface ChangedRecipient {
  readonly messageId: number;
  readonly seq: number;
  readonly state: RecipientDeliveryState;
}

export function recipientKey(messageId: number, seq: number): string {
  return `${messageId}:${seq}`;
}

function stateOf(row: DeliveryStateRow): RecipientDeliveryState {
  return {
    status: row.status as RecipientStatus,
    error: row.error,
    attempts: Number(row.attempts),
    partsAccepted: toPartMask(row.parts_accepted),
    partsDelivered: toPartMask(row.parts_delivered),
    nextAttemptAt: Number(row.next_attempt_at),
    firstAttemptAt: row.first_attempt_at === null ? null : Number(row.first_attempt_at),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * Folds each recipient's events into its stored state; returns the rows that changed (in the
 * order given) and moves the counters of those that became final. A recipient with no row is
 * left alone.
 */
export function foldRecipients(
  groups: readonly RecipientEvents[],
  rowOf: (messageId: number, seq: number) => DeliveryStateRow | undefined,
  nowMs: number,
  counts: CountDeltas,
): ChangedRecipient[] {
  const changed: ChangedRecipient[] = [];
  for (const group of groups) {
    const row = rowOf(group.messageId, group.seq);
    if (!row) continue;
    const result = foldDelivery(stateOf(row), Number(row.parts), group.events, nowMs);
    if (!result.changed) continue;
    if (result.became) counts.move(group.messageId, 'pending', result.became);
    changed.push({ messageId: group.messageId, seq: group.seq, state: result.state });
  }
  return changed;
}

/** A stored orphan receipt as the receipt it was. */
export function orphanReport(row: {
  carrier: string;
  smsc_id: string;
  outcome: string;
  error: string | null;
}): ReceiptReport {
  return {
    carrier: row.carrier,
    smscId: row.smsc_id,
    outcome: row.outcome === 'pending' ? null : (row.outcome as ReceiptReport['outcome']),
    error: row.error,
  };
}

/** Matched receipts as the metrics count them. */
export function appliedReceipts(
  matched: MatchedReceipts['matched'],
  nowMs: number,
): AppliedReceipt[] {
  return matched.map(({ receipt, submission }) => ({
    carrier: receipt.carrier,
    outcome: receipt.outcome!,
    latencyMs: nowMs - submission.submittedAt,
  }));
}

type Pair = { carrier: string; smscId: string };
type After = Pair & { at: number; batchSize: number };

/**
 * The sweep's reads, past a position in its order so that rows left in place are not read
 * again, and the orphan deletion. With `lock` (PostgreSQL) a read locks its batch and skips rows
 * another dispatcher's sweep holds.
 */
export function sweepStatements(db: Kysely<Tables>, { lock }: { lock: boolean }) {
  return {
    // Past a position in the sweep's order, so that rows left in place are not read again.
    orphans: statement((p: After) => {
      const query = db
        .selectFrom('orphan_receipts')
        .select(['carrier', 'smsc_id', 'outcome', 'error', 'received_at'])
        .where(
          (eb) =>
            sql<boolean>`(${eb.ref('received_at')}, ${eb.ref('carrier')}, ${eb.ref('smsc_id')}) > (${p.at}, ${p.carrier}, ${p.smscId})`,
        )
        .orderBy('received_at')
        .orderBy('carrier')
        .orderBy('smsc_id')
        .limit(p.batchSize);
      return lock ? query.forUpdate().skipLocked() : query;
    }),
    deleteOrphan: statement((p: Pair) =>
      db
        .deleteFrom('orphan_receipts')
        .where('carrier', '=', p.carrier)
        .where('smsc_id', '=', p.smscId),
    ),
    overdue: statement((p: After & { before: number }) => {
      const query = db
        .selectFrom('submissions')
        .select(['carrier', 'smsc_id', 'message_id', 'seq', 'part', 'submitted_at'])
        .where('submitted_at', '<', p.before)
        .where(
          (eb) =>
            sql<boolean>`(${eb.ref('submitted_at')}, ${eb.ref('carrier')}, ${eb.ref('smsc_id')}) > (${p.at}, ${p.carrier}, ${p.smscId})`,
        )
        .orderBy('submitted_at')
        .orderBy('carrier')
        .orderBy('smsc_id')
        .limit(p.batchSize);
      return lock ? query.forUpdate().skipLocked() : query;
    }),
  };
}
