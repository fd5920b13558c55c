import type BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
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
  lastPerKey,
  matchReceipts,
  type Submission,
} from '../../domain/delivery/delivery-events.js';
import type { RecipientStatus } from '../../domain/statuses.js';
import type { FinalRecipient } from '../../domain/webhooks/webhook-store.js';
import { CountDeltas } from '../count-deltas.js';
import { DeliveryChunks } from '../delivery-chunks.js';
import {
  eventsFromJson,
  foldCtes,
  FoldEvents,
  selectFolded,
  type FoldedRow,
} from '../delivery-fold.js';
import { appliedReceipts, orphanReport, sweepStatements } from '../delivery-sweep.js';
import type { SubmissionRow, Tables } from '../schema.js';
import { outboxStatements } from '../webhook-outbox.js';
import { bind, statement, type RunStatement, type Statement } from '../statements.js';

type Run = <T>(work: () => T) => Promise<T>;

/**
 * The delivery store on SQLite: each call one IMMEDIATE transaction on the process's one
 * connection, under the Kysely connection mutex (`run`), so it never interleaves with a Kysely
 * transaction. The chunk statements are the shared ones (delivery-chunks.ts), without row locks:
 * SQLite has a single writer, so a claim cannot race another claim. Outcomes and receipts are
 * written one row at a time, as fast on an in-process engine as any batching. Every statement
 * is built with Kysely and compiled once (statements.ts), and kept prepared by its text.
 */
export function sqliteDeliveryStore(
  raw: BetterSqlite3.Database,
  db: Kysely<Tables>,
  run: Run,
): DeliveryStore {
  const st = sqliteStatements(db);
  const sweep = sweepStatements(db, { lock: false });
  const chunks = new DeliveryChunks(db, { lock: false });
  const exec = sqliteRunner(raw);
  const runQuery: RunStatement = async (statement, values) => exec(statement, values);
  const outbox = outboxStatements(db);
  /**
   * The list a transaction collects its final recipients in for the webhook outbox (the fold
   * carries each one's msisdn), or null when no endpoint is enabled: then nothing is collected,
   * nor any outbox row written.
   */
  const finalsToPush = (): FinalRows | null =>
    exec(outbox.anyEndpoint, {}).length > 0 ? [] : null;
  /**
   * Moves the counters, then writes the webhook outbox rows of the recipients the batch made
   * final (webhook-outbox.ts): one per account with an enabled endpoint, its payload the
   * account's finals as they were collected, and a completion check for each of their messages.
   */
  const applyCounts = (deltas: CountDeltas, finals: FinalRows | null, nowMs: number) => {
    const entries = deltas.entries();
    for (const entry of entries) exec(st.addCount, entry);
    if (finals === null || finals.length === 0) return;
    const messageIds = JSON.stringify([...new Set(finals.map(([messageId]) => messageId))]);
    const accounts = new Map(
      exec(outbox.wantingAccounts, { messageIds }).map((row) => [row.id, row.account_id]),
    );
    const byAccount = new Map<number, FinalRecipient[]>();
    for (const final of finals) {
      const accountId = accounts.get(final[0]);
      if (accountId === undefined) continue;
      let list = byAccount.get(accountId);
      if (!list) byAccount.set(accountId, (list = []));
      list.push(final);
    }
    for (const [accountId, list] of byAccount) {
      exec(outbox.recipientsFinal, { accountId, payload: JSON.stringify(list), nowMs });
    }
    exec(outbox.completedChecks, { messageIds, nowMs });
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
    claimChunk: (input) => immediateAsync(() => chunks.claim(runQuery, input)),

    recordOutcomes: (outcomes, nowMs) =>
      immediate(() => {
        const counts = new CountDeltas();
        const finals = finalsToPush();
        recordOutcomesNow(outcomes, nowMs, counts, finals);
        applyCounts(counts, finals, nowMs);
      }),

    renewLeases: (owner, keys, untilMs) =>
      immediateAsync(() => chunks.renew(runQuery, owner, keys, untilMs)),

    releaseChunk: (owner, key, nowMs) =>
      immediateAsync(() => chunks.release(runQuery, owner, key, nowMs)),

    applyReceipts: (receipts, nowMs) =>
      immediate(() => {
        const counts = new CountDeltas();
        const finals = finalsToPush();
        const { matched, unmatched } = applyReceiptsNow(receipts, nowMs, counts, finals);
        for (const orphan of lastPerKey(unmatched, orphanKey)) {
          exec(st.insertOrphan, {
            carrier: orphan.carrier,
            smscId: normaliseSmscId(orphan.smscId),
            outcome: orphan.outcome ?? 'pending',
            error: orphan.error,
            nowMs,
          });
        }
        applyCounts(counts, finals, nowMs);
        return appliedReceipts(matched, nowMs);
      }),

    queueDepth: () => db.connection().execute(() => chunks.queueDepth(runQuery)),

    sweep: (input) =>
      immediate(() => {
        const { nowMs, orphanMaxAgeMs, from = SWEEP_START, batchSize = SWEEP_BATCH } = input;
        const counts = new CountDeltas();
        const finals = finalsToPush();
        const orphans =
          from.orphans === null
            ? []
            : exec(sweep.orphans, { ...rowAfter(from.orphans), batchSize });
        const reports = orphans.map(orphanReport);
        const { unmatched } = applyReceiptsNow(reports, nowMs, counts, finals);
        const left = new Set(unmatched);
        orphans.forEach((orphan, i) => {
          if (!left.has(reports[i]!) || orphan.received_at < nowMs - orphanMaxAgeMs)
            exec(sweep.deleteOrphan, { carrier: orphan.carrier, smscId: orphan.smsc_id });
        });
        const candidates =
          from.submissions === null
            ? []
            : exec(sweep.overdue, {
                before: nowMs - shortestReceiptWindowMs(input),
                ...rowAfter(from.submissions),
                batchSize,
              });
        const events = new FoldEvents();
        for (const sub of candidates) {
          if (!isOverdue(sub, input)) continue;
          exec(st.deleteSubmission, { carrier: sub.carrier, smscId: sub.smsc_id });
          events.add(sub.message_id, sub.seq, { kind: 'timeout' });
        }
        const changed = writeFolds(events, nowMs, counts, finals);
        const timedOut = changed.filter((c) => c.status === 'timeout').length;
        applyCounts(counts, finals, nowMs);
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

  /**
   * Folds the events into their recipients' rows (the one fold, delivery-fold.ts) and moves the
   * counters of those that became final, adding them to `finals`; returns the rows that changed,
   * with their new status.
   */
  function writeFolds(
    events: FoldEvents,
    nowMs: number,
    counts: CountDeltas,
    finals: FinalRows | null,
  ): { message_id: number; status: RecipientStatus }[] {
    if (events.size === 0) return [];
    const changed = exec(st.fold, { events: events.json(), nowMs });
    for (const row of changed) {
      exec(st.writeFolded, row);
      if (row.status !== 'pending') {
        counts.move(row.message_id, 'pending', row.status);
        finals?.push([row.message_id, row.seq, row.msisdn, row.status, row.updated_at]);
      }
    }
    return changed;
  }

  function recordOutcomesNow(
    outcomes: readonly PartOutcome[],
    nowMs: number,
    counts: CountDeltas,
    finals: FinalRows | null,
  ): void {
    const events = new FoldEvents();
    for (const outcome of outcomes) {
      if (outcome.kind === 'accepted') {
        exec(st.insertSubmission, {
          carrier: outcome.carrier,
          smscId: normaliseSmscId(outcome.smscId),
          messageId: outcome.messageId,
          seq: outcome.seq,
          part: outcome.part,
          nowMs,
        });
        exec(st.markAccepted, { messageId: outcome.messageId });
      }
      // A submit outcome is its own event (`PartOutcome` is a `DeliveryEvent`).
      events.add(outcome.messageId, outcome.seq, outcome);
    }
    writeFolds(events, nowMs, counts, finals);
  }

  /** Matches final receipts, deletes their submissions and folds them into their recipients. */
  function applyReceiptsNow(
    receipts: readonly ReceiptReport[],
    nowMs: number,
    counts: CountDeltas,
    finals: FinalRows | null,
  ): ReturnType<typeof matchReceipts> {
    const result = matchReceipts(
      receipts,
      (carrier, smscId) => {
        const [row] = exec(st.submission, { carrier, smscId });
        return row && submissionOf(row);
      },
      smscIdForms,
    );
    const events = new FoldEvents();
    for (const { receipt, submission } of result.matched) {
      exec(st.deleteSubmission, { carrier: submission.carrier, smscId: submission.smscId });
      events.add(submission.messageId, submission.seq, {
        kind: 'receipt',
        part: submission.part,
        outcome: receipt.outcome!,
        error: receipt.error,
      });
    }
    writeFolds(events, nowMs, counts, finals);
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

/** A sweep position as the parameters of a row-value comparison. */
function rowAfter(position: SweepPosition) {
  return { at: position.at, carrier: position.carrier, smscId: position.smscId };
}

/**
 * Runs a statement on the one connection, synchronously (better-sqlite3 is), prepared once per
 * statement: the texts never change.
 */
function sqliteRunner(raw: BetterSqlite3.Database) {
  const prepared = new WeakMap<Statement<never, unknown>, BetterSqlite3.Statement>();
  return <P, R>(st: Statement<P, R>, values: P): R[] => {
    let statement = prepared.get(st as Statement<never, unknown>);
    if (!statement) {
      statement = raw.prepare(st.sql);
      prepared.set(st as Statement<never, unknown>, statement);
    }
    const bound = bind(st, values);
    if (statement.reader) return statement.all(...bound) as R[];
    statement.run(...bound);
    return [];
  };
}

type Pair = { carrier: string; smscId: string };

/** The recipients a transaction made final, for the webhook outbox. */
type FinalRows = FinalRecipient[];

function sqliteStatements(db: Kysely<Tables>) {
  return {
    insertSubmission: statement(
      (p: Pair & { messageId: number; seq: number; part: number; nowMs: number }) =>
        db.insertInto('submissions').orReplace().values({
          carrier: p.carrier,
          smsc_id: p.smscId,
          message_id: p.messageId,
          seq: p.seq,
          part: p.part,
          submitted_at: p.nowMs,
        }),
    ),
    markAccepted: statement((p: { messageId: number }) =>
      db
        .updateTable('messages')
        .set({ any_accepted: 1 })
        .where('id', '=', p.messageId)
        .where('any_accepted', '=', 0),
    ),
    // The batch's events arrive as one JSON text of rows (FoldEvents.json).
    fold: statement((p: { events: string; nowMs: number }) =>
      sql<FoldedRow>`
        WITH RECURSIVE ${foldCtes(eventsFromJson(p.events), p.nowMs, { lock: false })}
        ${selectFolded}`.compile(db),
    ),
    writeFolded: statement((p: FoldedRow) => writeFolded(db, p)),
    addCount: statement((p: { messageId: number; status: string; delta: number }) =>
      db
        .insertInto('message_counts')
        .values({ message_id: p.messageId, status: p.status, count: p.delta })
        .onConflict((oc) =>
          oc
            .columns(['message_id', 'status'])
            .doUpdateSet((eb) => ({ count: eb('message_counts.count', '+', p.delta) })),
        ),
    ),
    submission: statement((p: Pair) =>
      db
        .selectFrom('submissions')
        .select(['carrier', 'smsc_id', 'message_id', 'seq', 'part', 'submitted_at'])
        .where('carrier', '=', p.carrier)
        .where('smsc_id', '=', p.smscId),
    ),
    deleteSubmission: statement((p: Pair) =>
      db.deleteFrom('submissions').where('carrier', '=', p.carrier).where('smsc_id', '=', p.smscId),
    ),
    insertOrphan: statement((p: Pair & { outcome: string; error: string | null; nowMs: number }) =>
      db.insertInto('orphan_receipts').orReplace().values({
        carrier: p.carrier,
        smsc_id: p.smscId,
        outcome: p.outcome,
        error: p.error,
        received_at: p.nowMs,
      }),
    ),
  };
}

/** A recipient's row as the fold left it. */
function writeFolded(db: Kysely<Tables>, p: FoldedRow) {
  return db
    .updateTable('recipients')
    .set({
      status: p.status,
      error: p.error,
      attempts: p.attempts,
      parts_accepted: sql<number>`CAST(${p.parts_accepted} AS INTEGER)`,
      parts_delivered: sql<number>`CAST(${p.parts_delivered} AS INTEGER)`,
      next_attempt_at: p.next_attempt_at,
      first_attempt_at: p.first_attempt_at,
      updated_at: p.updated_at,
    })
    .where('message_id', '=', p.message_id)
    .where('seq', '=', p.seq);
}
