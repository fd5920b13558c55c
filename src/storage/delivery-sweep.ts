// What both delivery stores share besides the fold (delivery-fold.ts) and the chunk statements
// (delivery-chunks.ts): the sweep's reads, an orphan receipt as a report, and matched receipts
// as the metrics count them.
import { sql, type Kysely } from 'kysely';
import type { AppliedReceipt, ReceiptReport } from '../domain/delivery/delivery-store.js';
import type { MatchedReceipts } from '../domain/delivery/delivery-events.js';
import type { Tables } from './schema.js';
import { statement } from './statements.js';

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
