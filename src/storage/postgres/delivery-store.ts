import type pg from 'pg';
import {
  isOverdue,
  SWEEP_BATCH,
  shortestReceiptWindowMs,
  smscIdForms,
  type DeliveryStore,
  type AppliedReceipt,
  type DispatchChunk,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import { CountDeltas } from '../count-deltas.js';
import {
  applyCounts,
  applyReceiptsAlone,
  firstPerRecipient,
  keepOrphans,
  recordAccepted,
  recordAcceptedAlone,
  recordRetries,
  uniqueRecipients,
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
    return (id: number) => 2 ** (partsOf.get(id) ?? 1) - 1;
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
      outcomes.every((o) => o.kind === 'accepted')
        ? recordAcceptedAlone(pool, outcomes as AcceptedOutcome[], nowMs)
        : transaction(pool, async (client) => {
            const counts = new CountDeltas();
            await recordAccepted(client, outcomes, nowMs);
            await recordRetries(client, outcomes, nowMs);
            const finals = firstPerRecipient(outcomes.filter((o) => o.kind === 'final'));
            if (finals.length > 0) {
              const { rows } = await client.query<{ message_id: number; status: string }>(
                `UPDATE recipients r SET status = v.status, error = v.error, updated_at = $5
             FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) v(message_id, seq, status, error)
             WHERE r.message_id = v.message_id AND r.seq = v.seq AND r.status = 'pending'
             RETURNING r.message_id, r.status`,
                [
                  finals.map((o) => o.messageId),
                  finals.map((o) => o.seq),
                  finals.map((o) => o.status),
                  finals.map((o) => o.error),
                  nowMs,
                ],
              );
              for (const row of rows) counts.move(row.message_id, 'pending', row.status as never);
            }
            await applyCounts(client, counts);
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
          [messageId, firstSeq, chunk.last_seq, full],
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
      receipts.every((r) => r.outcome !== null)
        ? applyReceiptsAlone(pool, receipts, nowMs)
        : transaction(pool, async (client) => {
            const counts = new CountDeltas();
            const applied: AppliedReceipt[] = [];
            const unmatched = await applyFinalReceipts(client, receipts, nowMs, counts, applied);
            if (unmatched.length > 0) await keepOrphans(client, unmatched, nowMs);
            await applyCounts(client, counts);
            return applied;
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
          'SELECT carrier, smsc_id, outcome, error, received_at FROM orphan_receipts LIMIT $1 FOR UPDATE SKIP LOCKED',
          [SWEEP_BATCH],
        );
        if (orphans.rows.length > 0) {
          const reports = orphans.rows.map((row): ReceiptReport => ({
            carrier: row.carrier,
            smscId: row.smsc_id,
            outcome: row.outcome === 'pending' ? null : (row.outcome as never),
            error: row.error,
          }));
          const unmatched = new Set(await applyFinalReceipts(client, reports, nowMs, counts));
          const done = orphans.rows.filter(
            (row, i) => !unmatched.has(reports[i]!) || row.received_at < nowMs - orphanMaxAgeMs,
          );
          await client.query(
            `DELETE FROM orphan_receipts o USING unnest($1::text[], $2::text[]) v(carrier, smsc_id)
             WHERE o.carrier = v.carrier AND o.smsc_id = v.smsc_id`,
            [done.map((row) => row.carrier), done.map((row) => row.smsc_id)],
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
           WHERE submitted_at < $1 ORDER BY submitted_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [nowMs - shortestReceiptWindowMs(input), SWEEP_BATCH],
        );
        const overdue = { rows: candidates.rows.filter((row) => isOverdue(row, input)) };
        if (overdue.rows.length > 0) {
          await client.query(
            `DELETE FROM submissions s USING unnest($1::text[], $2::text[]) v(carrier, smsc_id)
             WHERE s.carrier = v.carrier AND s.smsc_id = v.smsc_id`,
            [overdue.rows.map((row) => row.carrier), overdue.rows.map((row) => row.smsc_id)],
          );
        }
        let timedOut = 0;
        if (overdue.rows.length > 0) {
          const recipients = uniqueRecipients(overdue.rows);
          const { rows } = await client.query<{ message_id: number }>(
            `UPDATE recipients r SET status = 'timeout', error = 'no receipt', updated_at = $3
             FROM unnest($1::bigint[], $2::bigint[]) v(message_id, seq)
             WHERE r.message_id = v.message_id AND r.seq = v.seq AND r.status = 'pending'
             RETURNING r.message_id`,
            [recipients.map((r) => r.message_id), recipients.map((r) => r.seq), nowMs],
          );
          for (const row of rows) counts.move(row.message_id, 'pending', 'timeout');
          timedOut = rows.length;
        }
        await applyCounts(client, counts);
        return {
          timedOut,
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
      parts_accepted: number;
      first_attempt_at: number | null;
    }>(
      `SELECT seq, msisdn, parts_accepted, first_attempt_at FROM recipients
       WHERE message_id = $1 AND seq > $2 AND seq <= $3 AND status = 'pending'
         AND next_attempt_at <= $4 AND parts_accepted <> $5
       ORDER BY seq`,
      [chunk.message_id, chunk.first_seq, chunk.last_seq, nowMs, 2 ** message.parts - 1],
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
        partsAccepted: row.parts_accepted,
        firstAttemptAt: row.first_attempt_at,
      })),
    };
  }

  /** Applies receipts with a final outcome; returns those whose submission was not found. */
  async function applyFinalReceipts(
    client: pg.PoolClient,
    receipts: readonly ReceiptReport[],
    nowMs: number,
    counts: CountDeltas,
    applied: AppliedReceipt[] = [],
  ): Promise<ReceiptReport[]> {
    const final = receipts.filter((r) => r.outcome !== null);
    if (final.length === 0) return [];
    const idx: number[] = [];
    const carriers: string[] = [];
    const ids: string[] = [];
    final.forEach((receipt, i) => {
      for (const id of smscIdForms(receipt.smscId)) {
        idx.push(i);
        carriers.push(receipt.carrier);
        ids.push(id);
      }
    });
    const { rows: matched } = await client.query<{
      idx: number;
      message_id: number;
      seq: number;
      part: number;
      submitted_at: number;
    }>(
      `DELETE FROM submissions s USING unnest($1::int[], $2::text[], $3::text[]) v(idx, carrier, smsc_id)
       WHERE s.carrier = v.carrier AND s.smsc_id = v.smsc_id
       RETURNING v.idx, s.message_id, s.seq, s.part, s.submitted_at`,
      [idx, carriers, ids],
    );
    const found = new Set(matched.map((row) => row.idx));
    const byRecipient = new Map<
      string,
      { messageId: number; seq: number; bits: number; fail: string | null; error: string | null }
    >();
    for (const row of matched) {
      const receipt = final[row.idx]!;
      applied.push({
        carrier: receipt.carrier,
        outcome: receipt.outcome!,
        latencyMs: nowMs - row.submitted_at,
      });
      const key = `${row.message_id}:${row.seq}`;
      let entry = byRecipient.get(key);
      if (!entry) {
        entry = { messageId: row.message_id, seq: row.seq, bits: 0, fail: null, error: null };
        byRecipient.set(key, entry);
      }
      if (receipt.outcome === 'success') entry.bits |= 2 ** row.part;
      else if (entry.fail === null) {
        entry.fail = receipt.outcome;
        entry.error = receipt.error;
      }
    }
    const entries = [...byRecipient.values()].sort(
      (a, b) => a.messageId - b.messageId || a.seq - b.seq,
    );
    if (entries.length > 0) {
      const full = await fullMasks(
        client,
        entries.map((e) => e.messageId),
      );
      const { rows } = await client.query<{ message_id: number; status: string }>(
        `UPDATE recipients r SET
           parts_delivered = r.parts_delivered | v.bits,
           status = CASE WHEN v.fail IS NOT NULL THEN v.fail
                         WHEN (r.parts_delivered | v.bits) = v.full_mask THEN 'success'
                         ELSE r.status END,
           error = coalesce(v.error, r.error),
           updated_at = CASE WHEN v.fail IS NOT NULL OR (r.parts_delivered | v.bits) = v.full_mask
                             THEN $7 ELSE r.updated_at END
         FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[])
           v(message_id, seq, bits, full_mask, fail, error)
         WHERE r.message_id = v.message_id AND r.seq = v.seq AND r.status = 'pending'
         RETURNING r.message_id, r.status`,
        [
          entries.map((e) => e.messageId),
          entries.map((e) => e.seq),
          entries.map((e) => e.bits),
          entries.map((e) => full(e.messageId)),
          entries.map((e) => e.fail),
          entries.map((e) => e.error),
          nowMs,
        ],
      );
      for (const row of rows) {
        if (row.status !== 'pending') counts.move(row.message_id, 'pending', row.status as never);
      }
    }
    return final.filter((_, i) => !found.has(i));
  }
}

interface ChunkRow {
  message_id: number;
  first_seq: number;
  last_seq: number;
}
