import type { CompiledQuery, Kysely } from 'kysely';
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
import { EventsByRecipient, outcomeEvent } from '../../domain/delivery/fold-delivery.js';
import { CountDeltas } from '../count-deltas.js';
import {
  DeliveryChunks,
  type ChunkRow,
  type DispatchableRow,
  type RunQuery,
} from '../delivery-chunks.js';
import { appliedReceipts, orphanReport } from '../delivery-state-rows.js';
import type { Tables } from '../schema.js';
import {
  foldLocked,
  matchAndFoldLocked,
  writeBatch,
  type AcceptedOutcome,
} from './delivery-batches.js';
import { autocommit, transaction } from './pg-transactions.js';

/**
 * The delivery store on PostgreSQL, for any number of dispatcher processes. Each call is one
 * transaction on one pooled connection. The chunk statements are the shared ones
 * (delivery-chunks.ts); what is PostgreSQL's own is below: claims take `FOR UPDATE SKIP LOCKED`
 * (two dispatchers never lease the same chunk and never wait for each other to do so; SQLite has
 * one writer and no row locks), a release locks its message row, and outcomes and receipts are
 * written in batches passed as arrays (`unnest`, delivery-batches.ts), so that a thousand of
 * them cost a few round trips rather than a thousand.
 */
export function postgresDeliveryStore(pool: pg.Pool, db: Kysely<Tables>): DeliveryStore {
  const chunks = new DeliveryChunks(db);

  return {
    // Picks lock their row and skip rows another dispatcher has locked: two dispatchers never
    // lease the same chunk and never wait for each other to do so.
    claimChunk: (input) =>
      transaction(pool, (client) =>
        chunks.claim(
          pgRunQuery(client),
          {
            async due(nowMs) {
              const { rows } = await client.query<ChunkRow>(
                `SELECT c.message_id, c.first_seq, c.last_seq FROM dispatch_chunks c
                 JOIN messages m ON m.id = c.message_id
                 WHERE c.due_at <= $1 AND c.lease_expires_at <= $1 AND m.status = 'pending'
                 ORDER BY c.first_seq, c.message_id LIMIT 1 FOR UPDATE OF c SKIP LOCKED`,
                [nowMs],
              );
              return rows[0];
            },
            async dispatchable() {
              const { rows } = await client.query<DispatchableRow>(
                `SELECT id, dispatch_upto, materialised_upto FROM messages
                 WHERE status = 'pending' AND dispatch_upto < recipient_total
                   AND dispatch_upto < materialised_upto
                 ORDER BY dispatch_upto, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
              );
              return rows[0];
            },
          },
          input,
        ),
      ),

    recordOutcomes: (outcomes, nowMs) =>
      transaction(pool, async (client) => {
        const counts = new CountDeltas();
        const events = new EventsByRecipient();
        for (const outcome of outcomes) {
          events.add(outcome.messageId, outcome.seq, outcomeEvent(outcome));
        }
        const recipients = await foldLocked(client, events, nowMs, counts);
        const accepted = outcomes.filter((o): o is AcceptedOutcome => o.kind === 'accepted');
        await writeBatch(client, { accepted, recipients, counts }, nowMs);
      }),

    renewLeases: (owner, keys, untilMs) => chunks.renew(poolRunQuery(pool), owner, keys, untilMs),

    releaseChunk: (owner, key, nowMs) =>
      transaction(pool, async (client) => {
        // The message row first: releases of one message's chunks take turns, so the one that
        // deletes the last chunk sees every other deletion committed and finishes the message.
        await client.query('SELECT 1 FROM messages WHERE id = $1 FOR UPDATE', [key.messageId]);
        return chunks.release(pgRunQuery(client), owner, key, nowMs);
      }),

    applyReceipts: (receipts, nowMs) =>
      transaction(pool, async (client) => {
        const counts = new CountDeltas();
        const { matched, unmatched, recipients } = await matchAndFoldLocked(
          client,
          receipts,
          nowMs,
          counts,
        );
        await writeBatch(
          client,
          {
            deleteSubmissions: matched.map((m) => m.submission),
            recipients,
            orphans: unmatched,
            counts,
          },
          nowMs,
        );
        return appliedReceipts(matched, nowMs);
      }),

    queueDepth: () => chunks.queueDepth(poolRunQuery(pool)),

    sweep: (input) =>
      transaction(pool, async (client) => {
        const { from = SWEEP_START, batchSize = SWEEP_BATCH } = input;
        const orphans =
          from.orphans === null ? [] : await matchOrphans(client, from.orphans, batchSize, input);
        const overdue =
          from.submissions === null
            ? { read: [], timedOut: 0 }
            : await timeOutOverdue(client, from.submissions, batchSize, input);
        return {
          timedOut: overdue.timedOut,
          next: nextSweepCursor(orphans, overdue.read, batchSize),
        };
      }),
  };
}

type SweepInput = Parameters<DeliveryStore['sweep']>[0];

/**
 * Matches the orphan receipts past `after` (a batch, locked; another dispatcher's sweep skips
 * them) and deletes those matched or too old. Returns the positions of the rows read.
 */
async function matchOrphans(
  client: pg.PoolClient,
  after: SweepPosition,
  batchSize: number,
  input: SweepInput,
): Promise<SweepPosition[]> {
  const { nowMs, orphanMaxAgeMs } = input;
  const { rows } = await client.query<OrphanRow>(
    `SELECT carrier, smsc_id, outcome, error, received_at FROM orphan_receipts
     WHERE (received_at, carrier, smsc_id) > ($1, $2, $3)
     ORDER BY received_at, carrier, smsc_id LIMIT $4 FOR UPDATE SKIP LOCKED`,
    [after.at, after.carrier, after.smscId, batchSize],
  );
  if (rows.length === 0) return [];
  const counts = new CountDeltas();
  const reports = rows.map(orphanReport);
  const { matched, unmatched, recipients } = await matchAndFoldLocked(
    client,
    reports,
    nowMs,
    counts,
  );
  const left = new Set(unmatched);
  const done = rows.filter(
    (row, i) => !left.has(reports[i]!) || row.received_at < nowMs - orphanMaxAgeMs,
  );
  await writeBatch(
    client,
    {
      deleteSubmissions: matched.map((m) => m.submission),
      recipients,
      deleteOrphans: done.map((row) => ({ carrier: row.carrier, smscId: row.smsc_id })),
      counts,
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
  client: pg.PoolClient,
  after: SweepPosition,
  batchSize: number,
  input: SweepInput,
): Promise<{ read: SweepPosition[]; timedOut: number }> {
  const { nowMs } = input;
  const { rows } = await client.query<{
    carrier: string;
    smsc_id: string;
    message_id: number;
    seq: number;
    submitted_at: number;
  }>(
    `SELECT carrier, smsc_id, message_id, seq, submitted_at FROM submissions
     WHERE submitted_at < $1 AND (submitted_at, carrier, smsc_id) > ($2, $3, $4)
     ORDER BY submitted_at, carrier, smsc_id LIMIT $5 FOR UPDATE SKIP LOCKED`,
    [nowMs - shortestReceiptWindowMs(input), after.at, after.carrier, after.smscId, batchSize],
  );
  const overdue = rows.filter((row) => isOverdue(row, input));
  const counts = new CountDeltas();
  const events = new EventsByRecipient();
  for (const row of overdue) events.add(row.message_id, row.seq, { kind: 'timeout' });
  const recipients = await foldLocked(client, events, nowMs, counts);
  await writeBatch(
    client,
    {
      deleteSubmissions: overdue.map((row) => ({ carrier: row.carrier, smscId: row.smsc_id })),
      recipients,
      counts,
    },
    nowMs,
  );
  return {
    read: rows.map((row) => ({ at: row.submitted_at, carrier: row.carrier, smscId: row.smsc_id })),
    timedOut: recipients.filter((r) => r.state.status === 'timeout').length,
  };
}

interface OrphanRow {
  carrier: string;
  smsc_id: string;
  outcome: string;
  error: string | null;
  received_at: number;
}

/** Runs the shared statements on the transaction's connection. */
function pgRunQuery(client: pg.PoolClient): RunQuery {
  return async <R>(query: CompiledQuery<R>) =>
    (await client.query(query.sql, [...query.parameters])).rows as R[];
}

/** Runs a shared statement on its own (atomic by itself). */
function poolRunQuery(pool: pg.Pool): RunQuery {
  return async <R>(query: CompiledQuery<R>) =>
    (await autocommit(pool, query.sql, [...query.parameters])).rows as R[];
}
