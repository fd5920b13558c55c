// What both delivery stores share around the domain's fold (domain/delivery/fold-delivery.ts):
// the portable SQL that reads a recipient's delivery state, the row it is read into, and the
// folding of a batch's events into the rows to write and the counter deltas.
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

/** The columns of a `DeliveryStateRow`, from `recipients r` and `messages m`. */
export const DELIVERY_STATE_COLUMNS = `r.message_id, r.seq, r.status, r.error, r.attempts,
    CAST(r.parts_accepted AS TEXT) AS parts_accepted,
    CAST(r.parts_delivered AS TEXT) AS parts_delivered,
    r.next_attempt_at, r.first_attempt_at, r.updated_at, m.parts`;

/**
 * A recipient's delivery state and its message's part count; masks as text, so that no driver
 * rounds a 64-bit value through a double. Each engine adds its own WHERE (one row on SQLite, an
 * array of keys and row locks on PostgreSQL).
 */
export const SELECT_DELIVERY_STATE = `
  SELECT ${DELIVERY_STATE_COLUMNS}
  FROM recipients r JOIN messages m ON m.id = r.message_id`;

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
