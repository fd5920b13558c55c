import type { Kysely } from 'kysely';
import type pg from 'pg';
import {
  isOverdue,
  nextSweepCursor,
  SWEEP_BATCH,
  SWEEP_START,
  shortestReceiptWindowMs,
  type DeliveryStore,
  type SweepPosition,
} from '../../domain/delivery/delivery-store.js';
import { DeliveryChunks } from '../delivery-chunks.js';
import { FoldEvents } from '../delivery-fold.js';
import { appliedReceipts, orphanReport, sweepStatements } from '../delivery-sweep.js';
import type { Tables } from '../schema.js';
import { bind, type RunStatement, type Statement } from '../statements.js';
import {
  applyReceiptsAtOnce,
  batchStatements,
  matchLocked,
  writeBatch,
  type AcceptedOutcome,
  type BatchStatements,
} from './delivery-batches.js';
import { autocommit, transaction } from './pg-transactions.js';

/**
 * The delivery store on PostgreSQL, for any number of dispatcher processes. Each call is one
 * transaction on one pooled connection. The chunk and sweep statements are the shared ones with
 * row locks (`lock`: picks take `FOR UPDATE SKIP LOCKED`, a release locks its message row);
 * what is PostgreSQL's own is that outcomes and receipts are written in batches passed as arrays
 * (`unnest`, delivery-batches.ts), so that a thousand of them cost a few round trips rather than
 * a thousand.
 */
export function postgresDeliveryStore(pool: pg.Pool, db: Kysely<Tables>): DeliveryStore {
  const chunks = new DeliveryChunks(db, { lock: true });
  const st = batchStatements(db);
  const sweep = sweepStatements(db, { lock: true });

  return {
    claimChunk: (input) => transaction(pool, (client) => chunks.claim(pgRun(client), input)),

    // One statement, atomic by itself: nothing is read before it.
    recordOutcomes: async (outcomes, nowMs) => {
      const events = new FoldEvents();
      for (const outcome of outcomes) {
        // A submit outcome is its own event (`PartOutcome` is a `DeliveryEvent`).
        events.add(outcome.messageId, outcome.seq, outcome);
      }
      const accepted = outcomes.filter((o): o is AcceptedOutcome => o.kind === 'accepted');
      await writeBatch(poolRun(pool), st.outcomes, { events, accepted }, nowMs);
    },

    renewLeases: (owner, keys, untilMs) =>
      transaction(pool, (client) => chunks.renew(pgRun(client), owner, keys, untilMs)),

    releaseChunk: (owner, key, nowMs) =>
      transaction(pool, (client) => chunks.release(pgRun(client), owner, key, nowMs)),

    // One statement when no two receipts name one submission; else, and for receipts of
    // several parts of one recipient, matched in batch order with the submissions read and
    // locked first.
    applyReceipts: async (receipts, nowMs) => {
      const atOnce = await applyReceiptsAtOnce(poolRun(pool), st, receipts, nowMs);
      if (atOnce?.rest.length === 0) return atOnce.applied;
      const locked = await transaction(pool, async (client) => {
        const run = pgRun(client);
        const events = new FoldEvents();
        const { matched, unmatched } = await matchLocked(run, st, atOnce?.rest ?? receipts, events);
        await writeBatch(
          run,
          st.receipts,
          { events, deleteSubmissions: matched.map((m) => m.submission), orphans: unmatched },
          nowMs,
        );
        return appliedReceipts(matched, nowMs);
      });
      return atOnce ? [...atOnce.applied, ...locked] : locked;
    },

    queueDepth: () => chunks.queueDepth(poolRun(pool)),

    sweep: (input) =>
      transaction(pool, async (client) => {
        const { from = SWEEP_START, batchSize = SWEEP_BATCH } = input;
        const ctx = { run: pgRun(client), st, sweep, batchSize, input };
        const orphans = from.orphans === null ? [] : await matchOrphans(ctx, from.orphans);
        const overdue =
          from.submissions === null
            ? { read: [], timedOut: 0 }
            : await timeOutOverdue(ctx, from.submissions);
        return {
          timedOut: overdue.timedOut,
          next: nextSweepCursor(orphans, overdue.read, batchSize),
        };
      }),
  };
}

type SweepInput = Parameters<DeliveryStore['sweep']>[0];

interface SweepContext {
  run: RunStatement;
  st: BatchStatements;
  sweep: ReturnType<typeof sweepStatements>;
  batchSize: number;
  input: SweepInput;
}

/**
 * Matches the orphan receipts past `after` (a batch, locked; another dispatcher's sweep skips
 * them) and deletes those matched or too old. Returns the positions of the rows read.
 */
async function matchOrphans(
  { run, st, sweep, batchSize, input }: SweepContext,
  after: SweepPosition,
): Promise<SweepPosition[]> {
  const { nowMs, orphanMaxAgeMs } = input;
  const rows = await run(sweep.orphans, { ...after, batchSize });
  if (rows.length === 0) return [];
  const reports = rows.map(orphanReport);
  const events = new FoldEvents();
  const { matched, unmatched } = await matchLocked(run, st, reports, events);
  const left = new Set(unmatched);
  const done = rows.filter(
    (row, i) => !left.has(reports[i]!) || row.received_at < nowMs - orphanMaxAgeMs,
  );
  await writeBatch(
    run,
    st.orphansMatched,
    {
      events,
      deleteSubmissions: matched.map((m) => m.submission),
      deleteOrphans: done.map((row) => ({ carrier: row.carrier, smscId: row.smsc_id })),
    },
    nowMs,
  );
  return rows.map((row) => ({ at: row.received_at, carrier: row.carrier, smscId: row.smsc_id }));
}

/**
 * Gives `timeout` to the recipients of the submissions past `after` that are overdue by their
 * carrier's window (a batch, locked). Returns the positions of the rows read.
 */
async function timeOutOverdue(
  { run, st, sweep, batchSize, input }: SweepContext,
  after: SweepPosition,
): Promise<{ read: SweepPosition[]; timedOut: number }> {
  const { nowMs } = input;
  const rows = await run(sweep.overdue, {
    before: nowMs - shortestReceiptWindowMs(input),
    ...after,
    batchSize,
  });
  const overdue = rows.filter((row) => isOverdue(row, input));
  const events = new FoldEvents();
  for (const row of overdue) events.add(row.message_id, row.seq, { kind: 'timeout' });
  const timedOut = await writeBatch(
    run,
    st.timeouts,
    {
      events,
      deleteSubmissions: overdue.map((row) => ({ carrier: row.carrier, smscId: row.smsc_id })),
    },
    nowMs,
  );
  return {
    read: rows.map((row) => ({ at: row.submitted_at, carrier: row.carrier, smscId: row.smsc_id })),
    timedOut,
  };
}

/**
 * Runs statements on the transaction's connection, unnamed: PostgreSQL plans each run for the
 * values it is given and the tables as they are now (ADR 0044). A statement prepared by name is
 * planned generically after five runs and keeps that plan for the connection's life, so a plan
 * chosen while `recipients` held a few rows (a sequential scan) went on scanning it whole at
 * every batch once it held a hundred thousand, until an ANALYZE happened to come.
 */
function pgRun(client: pg.PoolClient): RunStatement {
  return async <P, R>(st: Statement<P, R>, values: P) =>
    (await client.query<R & pg.QueryResultRow>(st.sql, pgValues(bind(st, values)))).rows;
}

/** Runs a statement on its own (atomic by itself). */
function poolRun(pool: pg.Pool): RunStatement {
  return async <P, R>(st: Statement<P, R>, values: P) =>
    (await autocommit(pool, st.sql, pgValues(bind(st, values)))).rows as R[];
}

/**
 * Values as pg sends them, arrays as PostgreSQL's array literal text made here in one pass:
 * pg's own encoding escapes every element with two regular expressions, numbers too, and was
 * the largest part of the driver's cost of a batch.
 */
function pgValues(values: unknown[]): unknown[] {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (Array.isArray(value)) values[i] = arrayLiteral(value);
  }
  return values;
}

function arrayLiteral(values: readonly unknown[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += ',';
    const value = values[i];
    if (value === null || value === undefined) text += 'NULL';
    else if (typeof value === 'number' || typeof value === 'bigint') text += String(value);
    else {
      const string = String(value);
      text += NEEDS_ESCAPE.test(string) ? `"${string.replace(ESCAPED, '\\$&')}"` : `"${string}"`;
    }
  }
  return text + '}';
}

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;
