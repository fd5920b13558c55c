// What both delivery stores share besides the fold (delivery-fold.ts) and the chunk statements
// (delivery-chunks.ts): the sweep's reads, an orphan receipt as a report, and matched receipts
// as the metrics count them.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
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
  /** A batch of rows past `p` in the order (`at`, carrier, smsc_id), locked with `lock`. */
  const pastPosition = <T extends 'orphan_receipts' | 'submissions', O>(
    query: SelectQueryBuilder<Tables, T, O>,
    at: 'received_at' | 'submitted_at',
    p: After,
  ) => {
    const page = query
      .where(
        sql<boolean>`(${sql.ref(at)}, carrier, smsc_id) > (${p.at}, ${p.carrier}, ${p.smscId})`,
      )
      .orderBy(sql.ref(at))
      .orderBy(sql.ref('carrier'))
      .orderBy(sql.ref('smsc_id'))
      .limit(p.batchSize);
    return lock ? page.forUpdate().skipLocked() : page;
  };
  return {
    orphans: statement((p: After) =>
      pastPosition(
        db
          .selectFrom('orphan_receipts')
          .select(['carrier', 'smsc_id', 'outcome', 'error', 'received_at']),
        'received_at',
        p,
      ),
    ),
    deleteOrphan: statement((p: Pair) =>
      db
        .deleteFrom('orphan_receipts')
        .where('carrier', '=', p.carrier)
        .where('smsc_id', '=', p.smscId),
    ),
    overdue: statement((p: After & { before: number }) =>
      pastPosition(
        db
          .selectFrom('submissions')
          .select(['carrier', 'smsc_id', 'message_id', 'seq', 'part', 'submitted_at'])
          .where('submitted_at', '<', p.before),
        'submitted_at',
        p,
      ),
    ),
  };
}
