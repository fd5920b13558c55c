import type pg from 'pg';
import {
  isOverdue,
  SWEEP_BATCH,
  normaliseSmscId,
  shortestReceiptWindowMs,
  smscIdForms,
  type DeliveryStore,
  type AppliedReceipt,
  type DispatchChunk,
  type PartOutcome,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import { CountDeltas } from '../count-deltas.js';

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

type AcceptedOutcome = Extract<PartOutcome, { kind: 'accepted' }>;

/** One submission per SMSC id: ON CONFLICT DO UPDATE may not touch a row twice in a statement. */
function uniqueSubmissions(accepted: readonly AcceptedOutcome[]): AcceptedOutcome[] {
  const byId = new Map<string, AcceptedOutcome>();
  for (const o of accepted) byId.set(`${o.carrier}\u0000${normaliseSmscId(o.smscId)}`, o);
  return [...byId.values()].sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
}

/**
 * A batch of accepted parts only — the usual one — as ONE statement (data-modifying CTEs,
 * atomic without BEGIN and COMMIT): one round trip instead of five.
 */
async function recordAcceptedAlone(
  pool: pg.Pool,
  accepted: readonly AcceptedOutcome[],
  nowMs: number,
): Promise<void> {
  if (accepted.length === 0) return;
  const rows = uniqueSubmissions(accepted);
  await autocommit(
    pool,
    `WITH v AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
         AS v(carrier, smsc_id, message_id, seq, part)
     ), ins AS (
       INSERT INTO submissions (carrier, smsc_id, message_id, seq, part, submitted_at)
       SELECT carrier, smsc_id, message_id, seq, part, $6::bigint FROM v
       ON CONFLICT (carrier, smsc_id) DO UPDATE SET message_id = excluded.message_id,
         seq = excluded.seq, part = excluded.part, submitted_at = excluded.submitted_at
     ), a AS (
       SELECT message_id, seq, bit_or(1::bigint << part::int) AS bits, count(*) AS n
       FROM v GROUP BY message_id, seq
     ), upd AS (
       UPDATE recipients r SET parts_accepted = r.parts_accepted | a.bits,
         attempts = r.attempts + a.n
       FROM a WHERE r.message_id = a.message_id AND r.seq = a.seq
     )
     UPDATE messages SET any_accepted = 1
     WHERE id IN (SELECT DISTINCT message_id FROM v) AND any_accepted = 0`,
    [
      rows.map((o) => o.carrier),
      rows.map((o) => normaliseSmscId(o.smscId)),
      rows.map((o) => o.messageId),
      rows.map((o) => o.seq),
      rows.map((o) => o.part),
      nowMs,
    ],
  );
}

/**
 * Final receipts only — the usual batch — as ONE statement: the submissions found are deleted,
 * their recipients moved on (success once every part is delivered, else the first failure) and
 * the counters with them; receipts whose submission is not there yet become orphans after.
 */
async function applyReceiptsAlone(
  pool: pg.Pool,
  receipts: readonly ReceiptReport[],
  nowMs: number,
): Promise<AppliedReceipt[]> {
  if (receipts.length === 0) return [];
  const idx: number[] = [];
  const carriers: string[] = [];
  const ids: string[] = [];
  receipts.forEach((receipt, i) => {
    for (const id of smscIdForms(receipt.smscId)) {
      idx.push(i);
      carriers.push(receipt.carrier);
      ids.push(id);
    }
  });
  const { rows } = await autocommit<{ idx: number; submitted_at: number }>(
    pool,
    `WITH v AS (
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) AS v(idx, carrier, smsc_id)
     ), receipt AS (
       SELECT (ordinality - 1)::int AS idx, outcome, error
       FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS x(outcome, error)
     ), del AS (
       DELETE FROM submissions s USING v
       WHERE s.carrier = v.carrier AND s.smsc_id = v.smsc_id
       RETURNING v.idx, s.message_id, s.seq, s.part, s.submitted_at
     ), d AS (
       SELECT del.*, receipt.outcome, receipt.error FROM del JOIN receipt USING (idx)
     ), a AS (
       SELECT message_id, seq,
         bit_or(CASE WHEN outcome = 'success' THEN 1::bigint << part::int ELSE 0 END) AS bits,
         min(CASE WHEN outcome <> 'success' THEN outcome END) AS fail,
         min(CASE WHEN outcome <> 'success' THEN error END) AS error
       FROM d GROUP BY message_id, seq
     ), upd AS (
       UPDATE recipients r SET
         parts_delivered = r.parts_delivered | a.bits,
         status = CASE WHEN a.fail IS NOT NULL THEN a.fail
                       WHEN (r.parts_delivered | a.bits) = (1::bigint << m.parts::int) - 1
                       THEN 'success' ELSE r.status END,
         error = coalesce(a.error, r.error),
         updated_at = CASE WHEN a.fail IS NOT NULL
                             OR (r.parts_delivered | a.bits) = (1::bigint << m.parts::int) - 1
                           THEN $6::bigint ELSE r.updated_at END
       FROM a JOIN messages m ON m.id = a.message_id
       WHERE r.message_id = a.message_id AND r.seq = a.seq AND r.status = 'pending'
       RETURNING r.message_id, r.status
     ), moved AS (
       SELECT message_id, status, 1 AS delta FROM upd WHERE status <> 'pending'
       UNION ALL
       SELECT message_id, 'pending', -1 FROM upd WHERE status <> 'pending'
     ), counted AS (
       INSERT INTO message_counts (message_id, status, count)
       SELECT message_id, status, sum(delta) FROM moved
       GROUP BY message_id, status ORDER BY message_id, status
       ON CONFLICT (message_id, status) DO UPDATE SET count = message_counts.count + excluded.count
     )
     SELECT idx, submitted_at FROM d`,
    [idx, carriers, ids, receipts.map((r) => r.outcome), receipts.map((r) => r.error), nowMs],
  );
  const found = new Set<number>();
  const applied: AppliedReceipt[] = [];
  for (const row of rows) {
    found.add(row.idx);
    const receipt = receipts[row.idx]!;
    applied.push({
      carrier: receipt.carrier,
      outcome: receipt.outcome!,
      latencyMs: nowMs - row.submitted_at,
    });
  }
  const unmatched = receipts.filter((_, i) => !found.has(i));
  if (unmatched.length > 0) {
    await transaction(pool, (client) => keepOrphans(client, unmatched, nowMs));
  }
  return applied;
}

async function recordAccepted(
  client: pg.PoolClient,
  outcomes: readonly PartOutcome[],
  nowMs: number,
): Promise<void> {
  const accepted = outcomes.filter((o) => o.kind === 'accepted');
  if (accepted.length === 0) return;
  await client.query(
    `INSERT INTO submissions (carrier, smsc_id, message_id, seq, part, submitted_at)
     SELECT v.*, $6::bigint FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
       v(carrier, smsc_id, message_id, seq, part)
     ON CONFLICT (carrier, smsc_id) DO UPDATE SET message_id = excluded.message_id,
       seq = excluded.seq, part = excluded.part, submitted_at = excluded.submitted_at`,
    [
      accepted.map((o) => o.carrier),
      accepted.map((o) => normaliseSmscId(o.smscId)),
      accepted.map((o) => o.messageId),
      accepted.map((o) => o.seq),
      accepted.map((o) => o.part),
      nowMs,
    ],
  );
  const bits = new Map<string, { messageId: number; seq: number; bits: number; n: number }>();
  for (const o of accepted) {
    const key = `${o.messageId}:${o.seq}`;
    const entry = bits.get(key) ?? { messageId: o.messageId, seq: o.seq, bits: 0, n: 0 };
    entry.bits |= 2 ** o.part;
    entry.n += 1;
    bits.set(key, entry);
  }
  const entries = [...bits.values()].sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
  await client.query(
    `UPDATE recipients r SET parts_accepted = r.parts_accepted | v.bits, attempts = r.attempts + v.n
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[]) v(message_id, seq, bits, n)
     WHERE r.message_id = v.message_id AND r.seq = v.seq`,
    [
      entries.map((e) => e.messageId),
      entries.map((e) => e.seq),
      entries.map((e) => e.bits),
      entries.map((e) => e.n),
    ],
  );
  await client.query(
    'UPDATE messages SET any_accepted = 1 WHERE id = ANY($1::bigint[]) AND any_accepted = 0',
    [[...new Set(entries.map((e) => e.messageId))]],
  );
}

async function recordRetries(
  client: pg.PoolClient,
  outcomes: readonly PartOutcome[],
  nowMs: number,
): Promise<void> {
  const retries = firstPerRecipient(outcomes.filter((o) => o.kind === 'retry'));
  if (retries.length === 0) return;
  await client.query(
    `UPDATE recipients r SET next_attempt_at = v.next_attempt_at,
       first_attempt_at = coalesce(r.first_attempt_at, $5), error = v.error, attempts = r.attempts + 1
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[]) v(message_id, seq, next_attempt_at, error)
     WHERE r.message_id = v.message_id AND r.seq = v.seq AND r.status = 'pending'`,
    [
      retries.map((o) => o.messageId),
      retries.map((o) => o.seq),
      retries.map((o) => o.nextAttemptAt),
      retries.map((o) => o.error),
      nowMs,
    ],
  );
}

async function keepOrphans(
  client: pg.PoolClient,
  receipts: readonly ReceiptReport[],
  nowMs: number,
): Promise<void> {
  await client.query(
    `INSERT INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at)
     SELECT v.*, $5::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) v
     ON CONFLICT (carrier, smsc_id) DO UPDATE SET outcome = excluded.outcome,
       error = excluded.error, received_at = excluded.received_at`,
    [
      receipts.map((r) => r.carrier),
      receipts.map((r) => normaliseSmscId(r.smscId)),
      receipts.map((r) => r.outcome ?? 'pending'),
      receipts.map((r) => r.error),
      nowMs,
    ],
  );
}

async function applyCounts(client: pg.PoolClient, counts: CountDeltas): Promise<void> {
  const entries = counts.entries();
  if (entries.length === 0) return;
  await client.query(
    `INSERT INTO message_counts (message_id, status, count)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[])
     ON CONFLICT (message_id, status) DO UPDATE SET count = message_counts.count + excluded.count`,
    [entries.map((e) => e.messageId), entries.map((e) => e.status), entries.map((e) => e.delta)],
  );
}

/** One outcome per recipient (the first), sorted so concurrent writers lock rows in one order. */
function firstPerRecipient<T extends { messageId: number; seq: number }>(items: T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    const key = `${item.messageId}:${item.seq}`;
    if (!seen.has(key)) seen.set(key, item);
  }
  return [...seen.values()].sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
}

function uniqueRecipients<T extends { message_id: number; seq: number }>(rows: T[]): T[] {
  const seen = new Map<string, T>();
  for (const row of rows) seen.set(`${row.message_id}:${row.seq}`, row);
  return [...seen.values()].sort((a, b) => a.message_id - b.message_id || a.seq - b.seq);
}

interface ChunkRow {
  message_id: number;
  first_seq: number;
  last_seq: number;
}

const RETRYABLE = new Set(['40P01', '40001']);

/** One statement on its own (atomic by itself); retried when chosen as a deadlock's victim. */
async function autocommit<R extends pg.QueryResultRow = pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.query<R>(text, values);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= 5) throw error;
    }
  }
}

/** One transaction; retried whole when PostgreSQL chose it as a deadlock's victim. */
async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>) {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      const code = (error as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= 5) throw error;
    } finally {
      client.release();
    }
  }
}
