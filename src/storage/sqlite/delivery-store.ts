import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery, Kysely } from 'kysely';
import {
  isOverdue,
  nextSweepCursor,
  SWEEP_BATCH,
  SWEEP_START,
  shortestReceiptWindowMs,
  smscIdForms,
  normaliseSmscId,
  type DeliveryStore,
  type PartOutcome,
  type ReceiptReport,
  type SweepPosition,
} from '../../domain/delivery/delivery-store.js';
import {
  EventsByRecipient,
  lastPerKey,
  matchReceipts,
  outcomeEvent,
  type Submission,
} from '../../domain/delivery/fold-delivery.js';
import { CountDeltas } from '../count-deltas.js';
import {
  DeliveryChunks,
  type ChunkRow,
  type DispatchableRow,
  type RunQuery,
} from '../delivery-chunks.js';
import {
  appliedReceipts,
  foldRecipients,
  orphanReport,
  SELECT_DELIVERY_STATE,
  type ChangedRecipient,
  type DeliveryStateRow,
} from '../delivery-state-rows.js';
import type { Tables } from '../schema.js';

type Run = <T>(work: () => T) => Promise<T>;

/**
 * The delivery store on SQLite: each call one IMMEDIATE transaction on the process's one
 * connection, under the Kysely connection mutex (`run`), so it never interleaves with a Kysely
 * transaction. The chunk statements are the shared ones (delivery-chunks.ts); what is SQLite's
 * own is below. SQLite has a single writer, so a claim cannot race another claim and needs no
 * row locks; outcomes and receipts are written one row at a time with prepared statements, as
 * fast on an in-process engine as any batching.
 */
export function sqliteDeliveryStore(
  raw: BetterSqlite3.Database,
  db: Kysely<Tables>,
  run: Run,
): DeliveryStore {
  // Prepared on first use: the store is opened before the migrations create its tables.
  let statements: Statements | undefined;
  const st = () => (statements ??= prepare(raw));
  const chunks = new DeliveryChunks(db);
  const runQuery = sqliteRunQuery(raw);
  const applyCounts = (deltas: CountDeltas) => {
    for (const entry of deltas.entries()) st().addCount.run(entry);
  };
  const immediate = <T>(work: () => T): Promise<T> => run(() => raw.transaction(work).immediate());
  /** The same, for work that awaits the shared statements: the mutex is held until it settles. */
  const immediateAsync = <T>(work: () => Promise<T>): Promise<T> =>
    db.connection().execute(async () => {
      raw.exec('BEGIN IMMEDIATE');
      try {
        const result = await work();
        raw.exec('COMMIT');
        return result;
      } catch (error) {
        // SQLite may have rolled back already (disk full): ROLLBACK would hide the cause.
        if (raw.inTransaction) raw.exec('ROLLBACK');
        throw error;
      }
    });

  return {
    // Picks without row locks: SQLite's one writer already keeps two claims apart.
    claimChunk: (input) =>
      immediateAsync(() =>
        chunks.claim(
          runQuery,
          {
            due: async (nowMs) => st().dueChunk.get(nowMs, nowMs) as ChunkRow | undefined,
            dispatchable: async () => st().dispatchable.get() as DispatchableRow | undefined,
          },
          input,
        ),
      ),

    recordOutcomes: (outcomes, nowMs) =>
      immediate(() => {
        const counts = new CountDeltas();
        recordOutcomesNow(outcomes, nowMs, counts);
        applyCounts(counts);
      }),

    renewLeases: (owner, keys, untilMs) =>
      immediateAsync(() => chunks.renew(runQuery, owner, keys, untilMs)),

    releaseChunk: (owner, key, nowMs) =>
      immediateAsync(() => chunks.release(runQuery, owner, key, nowMs)),

    applyReceipts: (receipts, nowMs) =>
      immediate(() => {
        const counts = new CountDeltas();
        const { matched, unmatched } = applyReceiptsNow(receipts, nowMs, counts);
        for (const orphan of lastPerKey(unmatched, orphanKey)) {
          st().insertOrphan.run(
            orphan.carrier,
            normaliseSmscId(orphan.smscId),
            orphan.outcome ?? 'pending',
            orphan.error,
            nowMs,
          );
        }
        applyCounts(counts);
        return appliedReceipts(matched, nowMs);
      }),

    queueDepth: () => db.connection().execute(() => chunks.queueDepth(runQuery)),

    sweep: (input) =>
      immediate(() => {
        const { nowMs, orphanMaxAgeMs, from = SWEEP_START, batchSize = SWEEP_BATCH } = input;
        const counts = new CountDeltas();
        const orphans =
          from.orphans === null
            ? []
            : (st().orphans.all(...rowAfter(from.orphans), batchSize) as OrphanRow[]);
        const reports = orphans.map(orphanReport);
        const { unmatched } = applyReceiptsNow(reports, nowMs, counts);
        const left = new Set(unmatched);
        orphans.forEach((orphan, i) => {
          if (!left.has(reports[i]!) || orphan.received_at < nowMs - orphanMaxAgeMs)
            st().deleteOrphan.run(orphan.carrier, orphan.smsc_id);
        });
        const candidates =
          from.submissions === null
            ? []
            : (st().overdue.all(
                nowMs - shortestReceiptWindowMs(input),
                ...rowAfter(from.submissions),
                batchSize,
              ) as SubmissionRow[]);
        const events = new EventsByRecipient();
        for (const sub of candidates) {
          if (!isOverdue(sub, input)) continue;
          st().deleteSubmission.run(sub.carrier, sub.smsc_id);
          events.add(sub.message_id, sub.seq, { kind: 'timeout' });
        }
        const changed = writeFolds(events, nowMs, counts);
        const timedOut = changed.filter((c) => c.state.status === 'timeout').length;
        applyCounts(counts);
        return {
          timedOut,
          next: nextSweepCursor(
            orphans.map((row) => ({
              at: row.received_at,
              carrier: row.carrier,
              smscId: row.smsc_id,
            })),
            candidates.map((row) => ({
              at: row.submitted_at,
              carrier: row.carrier,
              smscId: row.smsc_id,
            })),
            batchSize,
          ),
        };
      }),
  };

  /** Folds each recipient's events into its row; returns the rows that changed. */
  function writeFolds(
    events: EventsByRecipient,
    nowMs: number,
    counts: CountDeltas,
  ): ChangedRecipient[] {
    const changed = foldRecipients(
      events.sorted(),
      (messageId, seq) => st().deliveryState.get(messageId, seq) as DeliveryStateRow | undefined,
      nowMs,
      counts,
    );
    for (const { messageId, seq, state } of changed) {
      st().writeState.run(
        state.status,
        state.error,
        state.attempts,
        state.partsAccepted,
        state.partsDelivered,
        state.nextAttemptAt,
        state.firstAttemptAt,
        state.updatedAt,
        messageId,
        seq,
      );
    }
    return changed;
  }

  function recordOutcomesNow(
    outcomes: readonly PartOutcome[],
    nowMs: number,
    counts: CountDeltas,
  ): void {
    const events = new EventsByRecipient();
    for (const outcome of outcomes) {
      if (outcome.kind === 'accepted') {
        st().insertSubmission.run(
          outcome.carrier,
          normaliseSmscId(outcome.smscId),
          outcome.messageId,
          outcome.seq,
          outcome.part,
          nowMs,
        );
        st().markAccepted.run(outcome.messageId);
      }
      events.add(outcome.messageId, outcome.seq, outcomeEvent(outcome));
    }
    writeFolds(events, nowMs, counts);
  }

  /** Matches final receipts, deletes their submissions and folds them into their recipients. */
  function applyReceiptsNow(
    receipts: readonly ReceiptReport[],
    nowMs: number,
    counts: CountDeltas,
  ): ReturnType<typeof matchReceipts> {
    const result = matchReceipts(
      receipts,
      (carrier, smscId) => {
        const row = st().submission.get(carrier, smscId) as SubmissionRow | undefined;
        return row && submissionOf(row);
      },
      smscIdForms,
    );
    const events = new EventsByRecipient();
    for (const { receipt, submission } of result.matched) {
      st().deleteSubmission.run(submission.carrier, submission.smscId);
      events.add(submission.messageId, submission.seq, {
        kind: 'receipt',
        part: submission.part,
        outcome: receipt.outcome!,
        error: receipt.error,
      });
    }
    writeFolds(events, nowMs, counts);
    return result;
  }
}

function submissionOf(row: SubmissionRow): Submission {
  return {
    carrier: row.carrier,
    smscId: row.smsc_id,
    messageId: row.message_id,
    seq: row.seq,
    part: row.part,
    submittedAt: row.submitted_at,
  };
}

function orphanKey(receipt: ReceiptReport): string {
  return `${receipt.carrier}\u0000${normaliseSmscId(receipt.smscId)}`;
}

interface SubmissionRow {
  carrier: string;
  smsc_id: string;
  message_id: number;
  seq: number;
  part: number;
  submitted_at: number;
}

interface OrphanRow {
  carrier: string;
  smsc_id: string;
  outcome: string;
  error: string | null;
  received_at: number;
}

/** A sweep position as the parameters of a row-value comparison. */
function rowAfter(position: SweepPosition): [number, string, string] {
  return [position.at, position.carrier, position.smscId];
}

type Statements = ReturnType<typeof prepare>;

/** Runs the shared statements on the one connection, each prepared once by its SQL text. */
function sqliteRunQuery(raw: BetterSqlite3.Database): RunQuery {
  const prepared = new Map<string, BetterSqlite3.Statement>();
  return async <R>(query: CompiledQuery<R>) => {
    let statement = prepared.get(query.sql);
    if (!statement) {
      statement = raw.prepare(query.sql);
      prepared.set(query.sql, statement);
    }
    if (statement.reader) return statement.all(...query.parameters) as R[];
    statement.run(...query.parameters);
    return [];
  };
}

function prepare(raw: BetterSqlite3.Database) {
  return {
    // Leased chunks whose lease ran out, or whose retries are due; first seqs first, so every
    // message's early chunks go before anyone's later ones.
    dueChunk: raw.prepare(`
      SELECT c.message_id, c.first_seq, c.last_seq FROM dispatch_chunks c
      JOIN messages m ON m.id = c.message_id
      WHERE c.due_at <= ? AND c.lease_expires_at <= ? AND m.status = 'pending'
      ORDER BY c.first_seq, c.message_id LIMIT 1`),
    dispatchable: raw.prepare(`
      SELECT id, dispatch_upto, materialised_upto FROM messages
      WHERE status = 'pending' AND dispatch_upto < recipient_total AND dispatch_upto < materialised_upto
      ORDER BY dispatch_upto, id LIMIT 1`),
    insertSubmission: raw.prepare(
      'INSERT OR REPLACE INTO submissions (carrier, smsc_id, message_id, seq, part, submitted_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    markAccepted: raw.prepare(
      'UPDATE messages SET any_accepted = 1 WHERE id = ? AND any_accepted = 0',
    ),
    deliveryState: raw.prepare(`${SELECT_DELIVERY_STATE} WHERE r.message_id = ? AND r.seq = ?`),
    writeState: raw.prepare(`
      UPDATE recipients SET status = ?, error = ?, attempts = ?, parts_accepted = ?,
        parts_delivered = ?, next_attempt_at = ?, first_attempt_at = ?, updated_at = ?
      WHERE message_id = ? AND seq = ?`),
    addCount: raw.prepare(`
      INSERT INTO message_counts (message_id, status, count) VALUES (@messageId, @status, @delta)
      ON CONFLICT (message_id, status) DO UPDATE SET count = count + @delta`),
    submission: raw.prepare(
      'SELECT carrier, smsc_id, message_id, seq, part, submitted_at FROM submissions WHERE carrier = ? AND smsc_id = ?',
    ),
    deleteSubmission: raw.prepare('DELETE FROM submissions WHERE carrier = ? AND smsc_id = ?'),
    insertOrphan: raw.prepare(
      'INSERT OR REPLACE INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at) VALUES (?, ?, ?, ?, ?)',
    ),
    // Past a position in the sweep's order, so that rows left in place are not read again.
    orphans: raw.prepare(
      'SELECT carrier, smsc_id, outcome, error, received_at FROM orphan_receipts WHERE (received_at, carrier, smsc_id) > (?, ?, ?) ORDER BY received_at, carrier, smsc_id LIMIT ?',
    ),
    deleteOrphan: raw.prepare('DELETE FROM orphan_receipts WHERE carrier = ? AND smsc_id = ?'),
    overdue: raw.prepare(
      'SELECT carrier, smsc_id, message_id, seq, part, submitted_at FROM submissions WHERE submitted_at < ? AND (submitted_at, carrier, smsc_id) > (?, ?, ?) ORDER BY submitted_at, carrier, smsc_id LIMIT ?',
    ),
  };
}
