import type BetterSqlite3 from 'better-sqlite3';
import {
  isOverdue,
  SWEEP_BATCH,
  shortestReceiptWindowMs,
  smscIdForms,
  normaliseSmscId,
  type DeliveryStore,
  type DispatchChunk,
  type DispatchRecipient,
  type AppliedReceipt,
  type PartOutcome,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import {
  EventsByRecipient,
  lastPerKey,
  matchReceipts,
  outcomeEvent,
  type Submission,
} from '../../domain/delivery/fold-delivery.js';
import { allParts, toPartMask } from '../../domain/delivery/part-mask.js';
import { CountDeltas } from '../count-deltas.js';
import {
  foldRecipients,
  SELECT_DELIVERY_STATE,
  type ChangedRecipient,
  type DeliveryStateRow,
} from '../delivery-state-rows.js';

type Run = <T>(work: () => T) => Promise<T>;

/**
 * The delivery store on SQLite: prepared statements on the process's one connection, each call
 * one IMMEDIATE transaction under the Kysely connection mutex (`run`), so it never interleaves
 * with a Kysely transaction. SQLite has a single writer: a claim cannot race another claim.
 */
export function sqliteDeliveryStore(raw: BetterSqlite3.Database, run: Run): DeliveryStore {
  // Prepared on first use: the store is opened before the migrations create its tables.
  let statements: Statements | undefined;
  const st = () => (statements ??= prepare(raw));
  const partsOf = new Map<number, number>();
  const fullMask = (messageId: number) => {
    let parts = partsOf.get(messageId);
    if (parts === undefined) {
      parts = (st().messageParts.get(messageId) as { parts: number } | undefined)?.parts ?? 1;
      partsOf.set(messageId, parts);
    }
    return allParts(parts);
  };
  const applyCounts = (deltas: CountDeltas) => {
    for (const entry of deltas.entries()) st().addCount.run(entry);
  };
  const immediate = <T>(work: () => T): Promise<T> => run(() => raw.transaction(work).immediate());

  return {
    claimChunk: ({ owner, nowMs, leaseMs, chunkSize }) =>
      immediate(() => {
        const until = nowMs + leaseMs;
        let chunk = st().dueChunk.get(nowMs, nowMs) as ChunkRow | undefined;
        if (chunk) {
          st().leaseChunk.run(owner, until, chunk.message_id, chunk.first_seq);
        } else {
          const message = st().dispatchable.get() as
            { id: number; dispatch_upto: number; materialised_upto: number } | undefined;
          if (!message) return null;
          const last = Math.min(message.materialised_upto, message.dispatch_upto + chunkSize);
          chunk = { message_id: message.id, first_seq: message.dispatch_upto, last_seq: last };
          st().insertChunk.run(message.id, message.dispatch_upto, last, nowMs, owner, until);
          st().advanceDispatch.run(last, message.id);
        }
        return loadChunk(chunk, nowMs);
      }),

    recordOutcomes: (outcomes, nowMs) =>
      immediate(() => {
        const counts = new CountDeltas();
        recordOutcomesNow(outcomes, nowMs, counts);
        applyCounts(counts);
      }),

    renewLeases: (owner, chunks, untilMs) =>
      immediate(() => {
        for (const chunk of chunks) st().renew.run(untilMs, chunk.messageId, chunk.firstSeq, owner);
      }),

    releaseChunk: (owner, { messageId, firstSeq }, nowMs) =>
      immediate(() => {
        const chunk = st().ownChunk.get(messageId, firstSeq, owner) as ChunkRow | undefined;
        if (!chunk) return;
        const next = st().nextDue.get(messageId, firstSeq, chunk.last_seq, fullMask(messageId)) as {
          due: number | null;
        };
        if (next.due !== null) {
          st().reschedule.run(next.due, messageId, firstSeq);
          return;
        }
        st().deleteChunk.run(messageId, firstSeq);
        if (st().anyChunk.get(messageId)) return;
        st().finishMessage.run(nowMs, nowMs, messageId);
      }),

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
        return matched.map(({ receipt, submission }): AppliedReceipt => ({
          carrier: receipt.carrier,
          outcome: receipt.outcome!,
          latencyMs: nowMs - submission.submittedAt,
        }));
      }),

    queueDepth: () => run(() => (st().queueDepth.get() as { depth: number | null }).depth ?? 0),

    sweep: (input) =>
      immediate(() => {
        const { nowMs, orphanMaxAgeMs } = input;
        const counts = new CountDeltas();
        const orphans = st().orphans.all(SWEEP_BATCH) as OrphanRow[];
        const reports = orphans.map(orphanReport);
        const { unmatched } = applyReceiptsNow(reports, nowMs, counts);
        const left = new Set(unmatched);
        orphans.forEach((orphan, i) => {
          if (!left.has(reports[i]!) || orphan.received_at < nowMs - orphanMaxAgeMs)
            st().deleteOrphan.run(orphan.carrier, orphan.smsc_id);
        });
        const candidates = st().overdue.all(
          nowMs - shortestReceiptWindowMs(input),
          SWEEP_BATCH,
        ) as SubmissionRow[];
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
          more: orphans.length === SWEEP_BATCH || candidates.length === SWEEP_BATCH,
        };
      }),
  };

  function loadChunk(chunk: ChunkRow, nowMs: number): DispatchChunk {
    const message = st().messageForDispatch.get(chunk.message_id) as {
      sender: string;
      content: string;
      parts: number;
    };
    partsOf.set(chunk.message_id, message.parts);
    const rows = st().dueRecipients.all(
      chunk.message_id,
      chunk.first_seq,
      chunk.last_seq,
      nowMs,
      allParts(message.parts),
    ) as { seq: number; msisdn: string; parts_accepted: string; first_attempt_at: number | null }[];
    return {
      messageId: chunk.message_id,
      firstSeq: chunk.first_seq,
      lastSeq: chunk.last_seq,
      sender: message.sender,
      content: message.content,
      parts: message.parts,
      recipients: rows.map((row): DispatchRecipient => ({
        seq: row.seq,
        msisdn: row.msisdn,
        partsAccepted: toPartMask(row.parts_accepted),
        firstAttemptAt: row.first_attempt_at,
      })),
    };
  }

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

function orphanReport(row: OrphanRow): ReceiptReport {
  return {
    carrier: row.carrier,
    smscId: row.smsc_id,
    outcome: row.outcome === 'pending' ? null : (row.outcome as never),
    error: row.error,
  };
}

interface ChunkRow {
  message_id: number;
  first_seq: number;
  last_seq: number;
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

type Statements = ReturnType<typeof prepare>;

function prepare(raw: BetterSqlite3.Database) {
  return {
    // Leased chunks whose lease ran out, or whose retries are due; first seqs first, so every
    // message's early chunks go before anyone's later ones.
    dueChunk: raw.prepare(`
      SELECT c.message_id, c.first_seq, c.last_seq FROM dispatch_chunks c
      JOIN messages m ON m.id = c.message_id
      WHERE c.due_at <= ? AND c.lease_expires_at <= ? AND m.status = 'pending'
      ORDER BY c.first_seq, c.message_id LIMIT 1`),
    leaseChunk: raw.prepare(
      'UPDATE dispatch_chunks SET lease_owner = ?, lease_expires_at = ? WHERE message_id = ? AND first_seq = ?',
    ),
    dispatchable: raw.prepare(`
      SELECT id, dispatch_upto, materialised_upto FROM messages
      WHERE status = 'pending' AND dispatch_upto < recipient_total AND dispatch_upto < materialised_upto
      ORDER BY dispatch_upto, id LIMIT 1`),
    insertChunk: raw.prepare(
      'INSERT INTO dispatch_chunks (message_id, first_seq, last_seq, due_at, lease_owner, lease_expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    advanceDispatch: raw.prepare('UPDATE messages SET dispatch_upto = ? WHERE id = ?'),
    messageForDispatch: raw.prepare('SELECT sender, content, parts FROM messages WHERE id = ?'),
    messageParts: raw.prepare('SELECT parts FROM messages WHERE id = ?'),
    dueRecipients: raw.prepare(`
      SELECT seq, msisdn, CAST(parts_accepted AS TEXT) AS parts_accepted, first_attempt_at
      FROM recipients
      WHERE message_id = ? AND seq > ? AND seq <= ? AND status = 'pending'
        AND next_attempt_at <= ? AND parts_accepted <> ?
      ORDER BY seq`),
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
    renew: raw.prepare(
      'UPDATE dispatch_chunks SET lease_expires_at = ? WHERE message_id = ? AND first_seq = ? AND lease_owner = ?',
    ),
    ownChunk: raw.prepare(
      'SELECT message_id, first_seq, last_seq FROM dispatch_chunks WHERE message_id = ? AND first_seq = ? AND lease_owner = ?',
    ),
    nextDue: raw.prepare(`
      SELECT min(next_attempt_at) AS due FROM recipients
      WHERE message_id = ? AND seq > ? AND seq <= ? AND status = 'pending' AND parts_accepted <> ?`),
    reschedule: raw.prepare(
      'UPDATE dispatch_chunks SET due_at = ?, lease_owner = NULL, lease_expires_at = 0 WHERE message_id = ? AND first_seq = ?',
    ),
    deleteChunk: raw.prepare('DELETE FROM dispatch_chunks WHERE message_id = ? AND first_seq = ?'),
    anyChunk: raw.prepare('SELECT 1 FROM dispatch_chunks WHERE message_id = ? LIMIT 1'),
    finishMessage: raw.prepare(`
      UPDATE messages SET status = CASE WHEN any_accepted = 1 THEN 'sent' ELSE 'failed' END,
        completed_at = ?, updated_at = ?
      WHERE id = ? AND status = 'pending' AND dispatch_upto = recipient_total`),
    submission: raw.prepare(
      'SELECT carrier, smsc_id, message_id, seq, part, submitted_at FROM submissions WHERE carrier = ? AND smsc_id = ?',
    ),
    deleteSubmission: raw.prepare('DELETE FROM submissions WHERE carrier = ? AND smsc_id = ?'),
    insertOrphan: raw.prepare(
      'INSERT OR REPLACE INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at) VALUES (?, ?, ?, ?, ?)',
    ),
    orphans: raw.prepare(
      'SELECT carrier, smsc_id, outcome, error, received_at FROM orphan_receipts ORDER BY received_at, carrier, smsc_id LIMIT ?',
    ),
    deleteOrphan: raw.prepare('DELETE FROM orphan_receipts WHERE carrier = ? AND smsc_id = ?'),
    queueDepth: raw.prepare(`
      SELECT sum(recipient_total - dispatch_upto) AS depth FROM messages
      WHERE status = 'pending' AND dispatch_upto < recipient_total`),
    overdue: raw.prepare(
      'SELECT carrier, smsc_id, message_id, seq, part, submitted_at FROM submissions WHERE submitted_at < ? ORDER BY submitted_at, carrier, smsc_id LIMIT ?',
    ),
  };
}
