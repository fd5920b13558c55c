import type pg from 'pg';
import {
  isOverdue,
  SWEEP_BATCH,
  shortestReceiptWindowMs,
  type DeliveryStore,
  type AppliedReceipt,
  type DispatchChunk,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import { EventsByRecipient, outcomeEvent } from '../../domain/delivery/fold-delivery.js';
import { allParts, toPartMask } from '../../domain/delivery/part-mask.js';
import { CountDeltas } from '../count-deltas.js';
import {
  foldLocked,
  matchLocked,
  receiptEvents,
  writeBatch,
  type AcceptedOutcome,
} from './delivery-batches.js';
import { transaction } from './pg-transactions.js';

/**
 * The delivery store on PostgreSQL, for any number of dispatcher processes. Each call is one
 * transaction on one pooled connection, with batches passed as arrays (`unnest`) so that a
 * thousand outcomes cost a few statements. Claims take `FOR UPDATE SKIP LOCKED`: two
 * dispatchers never lease the same chunk and never wait for each other to do so.
 */
export function postgresDeliveryStore(pool: pg.Pool): DeliveryStore {
  const partsOf = new Map<number, number>();

  async function fullMasks(client: pg.PoolClient, ids: Iterable<number>) {
    const missing = [...new Set(ids)].filter((id) => !partsOf.has(id));
    if (missing.length > 0) {
      const { rows } = await client.query<{ id: number; parts: number }>(
        'SELECT id, parts FROM messages WHERE id = ANY($1::bigint[])',
        [missing],
      );
      for (const row of rows) partsOf.set(row.id, row.parts);
    }
    return (id: number) => allParts(partsOf.get(id) ?? 1);
  }

  return {
    claimChunk: ({ owner, nowMs, leaseMs, chunkSize }) =>
      transaction(pool, async (client) => {
        const until = nowMs + leaseMs;
        const due = await client.query<ChunkRow>(
          `SELECT c.message_id, c.first_seq, c.last_seq FROM dispatch_chunks c
           JOIN messages m ON m.id = c.message_id
           WHERE c.due_at <= $1 AND c.lease_expires_at <= $1 AND m.status = 'pending'
           ORDER BY c.first_seq, c.message_id LIMIT 1 FOR UPDATE OF c SKIP LOCKED`,
          [nowMs],
        );
        let chunk = due.rows[0];
        if (chunk) {
          await client.query(
            'UPDATE dispatch_chunks SET lease_owner = $1, lease_expires_at = $2 WHERE message_id = $3 AND first_seq = $4',
            [owner, until, chunk.message_id, chunk.first_seq],
          );
        } else {
          const found = await client.query<{
            id: number;
            dispatch_upto: number;
            materialised_upto: number;
          }>(
            `SELECT id, dispatch_upto, materialised_upto FROM messages
             WHERE status = 'pending' AND dispatch_upto < recipient_total
               AND dispatch_upto < materialised_upto
             ORDER BY dispatch_upto, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          );
          const message = found.rows[0];
          if (!message) return null;
          const last = Math.min(message.materialised_upto, message.dispatch_upto + chunkSize);
          chunk = { message_id: message.id, first_seq: message.dispatch_upto, last_seq: last };
          await client.query(
            'INSERT INTO dispatch_chunks (message_id, first_seq, last_seq, due_at, lease_owner, lease_expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
            [message.id, message.dispatch_upto, last, nowMs, owner, until],
          );
          await client.query('UPDATE messages SET dispatch_upto = $1 WHERE id = $2', [
            last,
            message.id,
          ]);
        }
        return loadChunk(client, chunk, nowMs);
      }),

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

    renewLeases: async (owner, chunks, untilMs) => {
      if (chunks.length === 0) return;
      await pool.query(
        `UPDATE dispatch_chunks c SET lease_expires_at = $1
         FROM unnest($2::bigint[], $3::bigint[]) v(message_id, first_seq)
         WHERE c.message_id = v.message_id AND c.first_seq = v.first_seq AND c.lease_owner = $4`,
        [untilMs, chunks.map((c) => c.messageId), chunks.map((c) => c.firstSeq), owner],
      );
    },

    releaseChunk: (owner, { messageId, firstSeq }, nowMs) =>
      transaction(pool, async (client) => {
        // The message row first: releases of one message's chunks take turns, so the one that
        // deletes the last chunk sees every other deletion committed and finishes the message.
        await client.query('SELECT 1 FROM messages WHERE id = $1 FOR UPDATE', [messageId]);
        const own = await client.query<ChunkRow>(
          'SELECT message_id, first_seq, last_seq FROM dispatch_chunks WHERE message_id = $1 AND first_seq = $2 AND lease_owner = $3',
          [messageId, firstSeq, owner],
        );
        const chunk = own.rows[0];
        if (!chunk) return;
        const full = (await fullMasks(client, [messageId]))(messageId);
        const next = await client.query<{ due: number | null }>(
          `SELECT min(next_attempt_at) AS due FROM recipients
           WHERE message_id = $1 AND seq > $2 AND seq <= $3 AND status = 'pending' AND parts_accepted <> $4`,
          [messageId, firstSeq, chunk.last_seq, full.toString()],
        );
        const due = next.rows[0]?.due ?? null;
        if (due !== null) {
          await client.query(
            'UPDATE dispatch_chunks SET due_at = $1, lease_owner = NULL, lease_expires_at = 0 WHERE message_id = $2 AND first_seq = $3',
            [due, messageId, firstSeq],
          );
          return;
        }
        await client.query('DELETE FROM dispatch_chunks WHERE message_id = $1 AND first_seq = $2', [
          messageId,
          firstSeq,
        ]);
        await client.query(
          `UPDATE messages SET status = CASE WHEN any_accepted = 1 THEN 'sent' ELSE 'failed' END,
             completed_at = $1, updated_at = $1
           WHERE id = $2 AND status = 'pending' AND dispatch_upto = recipient_total
             AND NOT EXISTS (SELECT 1 FROM dispatch_chunks WHERE message_id = $2)`,
          [nowMs, messageId],
        );
      }),

    applyReceipts: (receipts, nowMs) =>
      transaction(pool, async (client) => {
        const counts = new CountDeltas();
        const { matched, unmatched } = await matchLocked(client, receipts);
        const recipients = await foldLocked(client, receiptEvents(matched), nowMs, counts);
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
        return matched.map(({ receipt, submission }): AppliedReceipt => ({
          carrier: receipt.carrier,
          outcome: receipt.outcome!,
          latencyMs: nowMs - submission.submittedAt,
        }));
      }),

    async queueDepth() {
      const { rows } = await pool.query<{ depth: number | null }>(
        `SELECT sum(recipient_total - dispatch_upto) AS depth FROM messages
         WHERE status = 'pending' AND dispatch_upto < recipient_total`,
      );
      return rows[0]?.depth ?? 0;
    },

    sweep: (input) =>
      transaction(pool, async (client) => {
        const { nowMs, orphanMaxAgeMs } = input;
        const counts = new CountDeltas();
        const orphans = await client.query<{
          carrier: string;
          smsc_id: string;
          outcome: string;
          error: string | null;
          received_at: number;
        }>(
          `SELECT carrier, smsc_id, outcome, error, received_at FROM orphan_receipts
           ORDER BY received_at, carrier, smsc_id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [SWEEP_BATCH],
        );
        if (orphans.rows.length > 0) {
          const reports = orphans.rows.map((row): ReceiptReport => ({
            carrier: row.carrier,
            smscId: row.smsc_id,
            outcome: row.outcome === 'pending' ? null : (row.outcome as never),
            error: row.error,
          }));
          const { matched, unmatched } = await matchLocked(client, reports);
          const left = new Set(unmatched);
          const recipients = await foldLocked(client, receiptEvents(matched), nowMs, counts);
          const done = orphans.rows.filter(
            (row, i) => !left.has(reports[i]!) || row.received_at < nowMs - orphanMaxAgeMs,
          );
          await writeBatch(
            client,
            {
              deleteSubmissions: matched.map((m) => m.submission),
              recipients,
              deleteOrphans: done.map((row) => ({ carrier: row.carrier, smscId: row.smsc_id })),
            },
            nowMs,
          );
        }
        const candidates = await client.query<{
          carrier: string;
          smsc_id: string;
          message_id: number;
          seq: number;
          submitted_at: number;
        }>(
          `SELECT carrier, smsc_id, message_id, seq, submitted_at FROM submissions
           WHERE submitted_at < $1 ORDER BY submitted_at, carrier, smsc_id LIMIT $2
           FOR UPDATE SKIP LOCKED`,
          [nowMs - shortestReceiptWindowMs(input), SWEEP_BATCH],
        );
        const overdue = candidates.rows.filter((row) => isOverdue(row, input));
        const events = new EventsByRecipient();
        for (const row of overdue) events.add(row.message_id, row.seq, { kind: 'timeout' });
        const recipients = await foldLocked(client, events, nowMs, counts);
        await writeBatch(
          client,
          {
            deleteSubmissions: overdue.map((row) => ({
              carrier: row.carrier,
              smscId: row.smsc_id,
            })),
            recipients,
            counts,
          },
          nowMs,
        );
        return {
          timedOut: recipients.filter((r) => r.state.status === 'timeout').length,
          more: orphans.rows.length === SWEEP_BATCH || candidates.rows.length === SWEEP_BATCH,
        };
      }),
  };

  async function loadChunk(
    client: pg.PoolClient,
    chunk: ChunkRow,
    nowMs: number,
  ): Promise<DispatchChunk> {
    const { rows: messages } = await client.query<{
      sender: string;
      content: string;
      parts: number;
    }>('SELECT sender, content, parts FROM messages WHERE id = $1', [chunk.message_id]);
    const message = messages[0]!;
    partsOf.set(chunk.message_id, message.parts);
    const { rows } = await client.query<{
      seq: number;
      msisdn: string;
      parts_accepted: string;
      first_attempt_at: number | null;
    }>(
      `SELECT seq, msisdn, CAST(parts_accepted AS TEXT) AS parts_accepted, first_attempt_at
       FROM recipients
       WHERE message_id = $1 AND seq > $2 AND seq <= $3 AND status = 'pending'
         AND next_attempt_at <= $4 AND parts_accepted <> $5
       ORDER BY seq`,
      [
        chunk.message_id,
        chunk.first_seq,
        chunk.last_seq,
        nowMs,
        allParts(message.parts).toString(),
      ],
    );
    return {
      messageId: chunk.message_id,
      firstSeq: chunk.first_seq,
      lastSeq: chunk.last_seq,
      sender: message.sender,
      content: message.content,
      parts: message.parts,
      recipients: rows.map((row) => ({
        seq: row.seq,
        msisdn: row.msisdn,
        partsAccepted: toPartMask(row.parts_accepted),
        firstAttemptAt: row.first_attempt_at,
      })),
    };
  }
}

interface ChunkRow {
  message_id: number;
  first_seq: number;
  last_seq: number;
}
