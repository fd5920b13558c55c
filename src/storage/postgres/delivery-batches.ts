// The batched statements of the PostgreSQL delivery store (delivery-store.ts): arrays passed
// whole (`unnest`), and everything a batch changes written in ONE statement, the recipients'
// new state computed inside it by the one delivery fold (delivery-fold.ts, the same SQL SQLite
// runs), so that no recipient's state is read back to the dispatcher. Receipts first read and
// lock the submissions they may match, with their recipients, in (message, seq) order. Built
// with Kysely's `sql` tag, each parameter where it is used, and compiled once (statements.ts).
import { sql, type Kysely } from 'kysely';
import {
  normaliseSmscId,
  smscIdForms,
  type AppliedReceipt,
  type PartOutcome,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import {
  lastPerKey,
  matchReceipts,
  type MatchedReceipts,
  type Submission,
} from '../../domain/delivery/delivery-events.js';
import {
  eventArrays,
  eventsFromArrays,
  FoldEvents,
  foldWriteCtes,
  type EventArrays,
} from '../delivery-fold.js';
import type { Tables } from '../schema.js';
import { outboxCtes } from '../webhook-outbox.js';
import { statement, type RunStatement } from '../statements.js';

export type AcceptedOutcome = Extract<PartOutcome, { kind: 'accepted' }>;

type Ids = readonly number[];
type Texts = readonly (string | null)[];

/** The batch statements, compiled once by the PostgreSQL dialect. */
export function batchStatements(db: Kysely<Tables>) {
  return {
    // Each submission an id form of the batch names, locked (another dispatcher's receipt for
    // the same id waits, then finds it gone); the write locks their recipients.
    lockedSubmissions: statement((p: { carriers: Texts; smscIds: Texts }) =>
      db
        .selectFrom('submissions as s')
        .innerJoin(
          sql<{
            carrier: string;
            smsc_id: string;
          }>`(SELECT DISTINCT * FROM unnest(${p.carriers}::text[], ${p.smscIds}::text[]) AS u(carrier, smsc_id))`.as(
            'v',
          ),
          (join) => join.onRef('v.carrier', '=', 's.carrier').onRef('v.smsc_id', '=', 's.smsc_id'),
        )
        .select(['s.carrier', 's.smsc_id', 's.message_id', 's.seq', 's.part', 's.submitted_at'])
        .orderBy('s.carrier')
        .orderBy('s.smsc_id')
        .forUpdate('s'),
    ),
    // Everything a batch changes, in ONE statement each (data-modifying CTEs): atomic, and one
    // round trip. Each kind of batch has a statement of only the parts it writes.
    outcomes: writeStatements(db, { submissions: 'insert' }),
    receipts: writeStatements(db, { submissions: 'delete', orphans: 'insert' }),
    orphansMatched: writeStatements(db, { submissions: 'delete', orphans: 'delete' }),
    timeouts: writeStatements(db, { submissions: 'delete' }),
    receiptsAtOnce: receiptsAtOnceStatement(db),
  };
}

/**
 * A receipt batch in ONE statement, when no two of its receipts name a common submission in any
 * of their id's forms (`applyReceiptsAtOnce`): each receipt takes its first form that names a
 * stored submission, which is what taking receipts in batch order gives when none can take
 * another's. Receipts whose submissions are of one recipient (the parts of a message) are left
 * as they are and returned (`submitted_at` null), to be matched on the locked path, where the
 * recursion of the fold applies them in batch order; every other recipient takes one step. The
 * submissions are deleted first and only the receipts whose submission this statement deleted
 * are folded in, so a receipt another dispatcher matched meanwhile becomes an orphan, as it
 * would on the locked path. Returns each matched receipt's place in the batch and its part's
 * acceptance time.
 */
function receiptsAtOnceStatement(db: Kysely<Tables>) {
  return statement(
    (p: {
      nowMs: number;
      formIdx: Ids;
      formRanks: Ids;
      formCarriers: Texts;
      formSmscIds: Texts;
      carriers: Texts;
      smscIds: Texts;
      outcomes: Texts;
      errors: Texts;
    }) =>
      // Each form is looked up by the primary key (LIMIT keeps the lookup apart): joined whole,
      // the planner hashed a scan of the table, small but churned, at every batch.
      sql<{ idx: number; submitted_at: number | null }>`
        WITH RECURSIVE receipt AS (
          SELECT * FROM unnest(${p.carriers}::text[], ${p.smscIds}::text[], ${p.outcomes}::text[],
            ${p.errors}::text[]) WITH ORDINALITY AS r(carrier, smsc_id, outcome, error, idx)
        ), chosen AS (
          SELECT DISTINCT ON (f.idx) f.idx, f.carrier, f.smsc_id, stored.message_id, stored.seq
          FROM unnest(${p.formIdx}::bigint[], ${p.formRanks}::int[], ${p.formCarriers}::text[],
            ${p.formSmscIds}::text[]) AS f(idx, rank, carrier, smsc_id)
          CROSS JOIN LATERAL (
            SELECT s.message_id, s.seq FROM submissions s
            WHERE s.carrier = f.carrier AND s.smsc_id = f.smsc_id
            LIMIT 1
          ) AS stored
          ORDER BY f.idx, f.rank
        ), shared AS (
          SELECT DISTINCT c.idx FROM chosen c
          JOIN chosen o ON o.message_id = c.message_id AND o.seq = c.seq AND o.idx <> c.idx
        ), del AS (
          DELETE FROM submissions s USING chosen c
          WHERE s.carrier = c.carrier AND s.smsc_id = c.smsc_id AND NOT EXISTS (SELECT 1 FROM shared WHERE shared.idx = c.idx)
          RETURNING c.idx, s.message_id, s.seq, s.part, s.submitted_at
        ), ${foldWriteCtes(
          sql`SELECT d.message_id, d.seq, 1 AS n, 1 AS last, 'receipt' AS kind, d.part,
              r.outcome AS status, r.error, CAST(NULL AS BIGINT) AS next_at
            FROM del d JOIN receipt r ON r.idx = d.idx`,
          p.nowMs,
          { several: false },
        )}, ${countMoves(p.nowMs)}, orphaned AS (
          INSERT INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at)
          SELECT r.carrier, r.smsc_id, r.outcome, r.error, ${p.nowMs}::bigint FROM receipt r
          WHERE NOT EXISTS (SELECT 1 FROM del d WHERE d.idx = r.idx)
            AND NOT EXISTS (SELECT 1 FROM shared WHERE shared.idx = r.idx)
          ON CONFLICT (carrier, smsc_id) DO UPDATE SET outcome = excluded.outcome,
            error = excluded.error, received_at = excluded.received_at
        )
        SELECT idx, submitted_at FROM del
        UNION ALL
        SELECT idx, NULL FROM shared`.compile(db),
  );
}

/**
 * Applies final receipts in one statement (`receiptsAtOnce`) unless two of them name a common
 * submission in any form (a repeated receipt, or one id's hex and decimal twins): then it
 * returns null and the caller matches them all in batch order on the locked path. Otherwise it
 * returns the receipts applied and those left to the locked path (`rest`: receipts for several
 * parts of one recipient).
 */
export async function applyReceiptsAtOnce(
  run: RunStatement,
  st: BatchStatements,
  receipts: readonly ReceiptReport[],
  nowMs: number,
): Promise<{ applied: AppliedReceipt[]; rest: ReceiptReport[] } | null> {
  const finals = receipts.filter((r) => r.outcome !== null);
  const formIdx: number[] = [];
  const formRanks: number[] = [];
  const formCarriers: string[] = [];
  const formSmscIds: string[] = [];
  /** Each receipt's id as submissions are stored under (its first form). */
  const smscIds: string[] = [];
  /** The forms named so far, by carrier. */
  const named = new Map<string, Set<string>>();
  for (let i = 0; i < finals.length; i++) {
    const { carrier, smscId } = finals[i]!;
    let forms = named.get(carrier);
    if (!forms) named.set(carrier, (forms = new Set()));
    const mine = smscIdForms(smscId);
    smscIds.push(mine[0]!);
    for (let rank = 0; rank < mine.length; rank++) {
      const form = mine[rank]!;
      if (forms.has(form)) return null;
      forms.add(form);
      formIdx.push(i + 1);
      formRanks.push(rank);
      formCarriers.push(carrier);
      formSmscIds.push(form);
    }
  }
  if (finals.length === 0) return { applied: [], rest: [] };
  const rows = await run(st.receiptsAtOnce, {
    nowMs,
    formIdx,
    formRanks,
    formCarriers,
    formSmscIds,
    carriers: finals.map((r) => r.carrier),
    smscIds,
    outcomes: finals.map((r) => r.outcome),
    errors: finals.map((r) => r.error),
  });
  const applied: AppliedReceipt[] = [];
  const left: number[] = [];
  for (const row of rows) {
    if (row.submitted_at === null) left.push(Number(row.idx));
    else {
      const receipt = finals[Number(row.idx) - 1]!;
      applied.push({
        carrier: receipt.carrier,
        outcome: receipt.outcome!,
        latencyMs: nowMs - Number(row.submitted_at),
      });
    }
  }
  // In batch order, as the locked path takes them.
  const rest = left.sort((a, b) => a - b).map((idx) => finals[idx - 1]!);
  return { applied, rest };
}

/**
 * `moved` (the recipients `upd` made final, by message and status) and `counted`: the message's
 * counters moved from pending to each final status, each returning its new count (the row as
 * locked, so the last of two concurrent batches sees 0). Then the webhook outbox rows of what
 * the batch made final (webhook-outbox.ts). Follows `upd` (delivery-fold.ts's write).
 */
const countMoves = (nowMs: unknown) => sql`moved AS (
    SELECT message_id, status, count(*) AS n FROM upd
    WHERE status <> 'pending' GROUP BY message_id, status
  ), counted AS (
    INSERT INTO message_counts (message_id, status, count)
    SELECT message_id, status, n FROM moved
    UNION ALL
    SELECT message_id, 'pending', -sum(n) FROM moved GROUP BY message_id
    ORDER BY 1, 2
    ON CONFLICT (message_id, status) DO UPDATE SET count = message_counts.count + excluded.count
    RETURNING message_id, status, count
  ), ${outboxCtes(nowMs)}`;

/** The values a batch's write statement may take (each statement uses those of its parts). */
interface WriteValues extends EventArrays {
  nowMs: number;
  subCarriers: Texts;
  subSmscIds: Texts;
  subMessageIds: Ids;
  subSeqs: Ids;
  subParts: Ids;
  acceptedMessages: Ids;
  unsubCarriers: Texts;
  unsubSmscIds: Texts;
  orphanCarriers: Texts;
  orphanSmscIds: Texts;
  orphanOutcomes: Texts;
  orphanErrors: Texts;
  unorphanCarriers: Texts;
  unorphanSmscIds: Texts;
}

/**
 * A batch's write: the events folded into their recipients (delivery-fold.ts) and the
 * counters moved, then what the batch does to submissions and orphan receipts. Returns how many
 * recipients it timed out (the sweep's figure).
 */
function writeStatements(
  db: Kysely<Tables>,
  parts: { submissions: 'insert' | 'delete'; orphans?: 'insert' | 'delete' },
) {
  return {
    /** For a batch that gives no recipient more than one event (`FoldEvents.oneEach`). */
    oneEach: writeStatement(db, parts, { several: false }),
    any: writeStatement(db, parts, { several: true }),
  };
}

function writeStatement(
  db: Kysely<Tables>,
  parts: { submissions: 'insert' | 'delete'; orphans?: 'insert' | 'delete' },
  { several }: { several: boolean },
) {
  return statement((p: WriteValues) => {
    const submissions =
      parts.submissions === 'insert'
        ? sql`, ins AS (
          INSERT INTO submissions (carrier, smsc_id, message_id, seq, part, submitted_at)
          SELECT v.*, ${p.nowMs}::bigint
          FROM unnest(${p.subCarriers}::text[], ${p.subSmscIds}::text[],
            ${p.subMessageIds}::bigint[], ${p.subSeqs}::bigint[], ${p.subParts}::bigint[])
            v(carrier, smsc_id, message_id, seq, part)
          ON CONFLICT (carrier, smsc_id) DO UPDATE SET message_id = excluded.message_id,
            seq = excluded.seq, part = excluded.part, submitted_at = excluded.submitted_at
        ), marked AS (
          UPDATE messages SET any_accepted = 1
          WHERE id = ANY(${p.acceptedMessages}::bigint[]) AND any_accepted = 0
        )`
        : sql`, del AS (
          DELETE FROM submissions s
          USING unnest(${p.unsubCarriers}::text[], ${p.unsubSmscIds}::text[]) v(carrier, smsc_id)
          WHERE s.carrier = v.carrier AND s.smsc_id = v.smsc_id
        )`;
    const orphans =
      parts.orphans === 'insert'
        ? sql`, orphaned AS (
          INSERT INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at)
          SELECT v.*, ${p.nowMs}::bigint
          FROM unnest(${p.orphanCarriers}::text[], ${p.orphanSmscIds}::text[],
            ${p.orphanOutcomes}::text[], ${p.orphanErrors}::text[]) v
          ON CONFLICT (carrier, smsc_id) DO UPDATE SET outcome = excluded.outcome,
            error = excluded.error, received_at = excluded.received_at
        )`
        : parts.orphans === 'delete'
          ? sql`, unorphaned AS (
          DELETE FROM orphan_receipts o
          USING unnest(${p.unorphanCarriers}::text[], ${p.unorphanSmscIds}::text[])
            v(carrier, smsc_id)
          WHERE o.carrier = v.carrier AND o.smsc_id = v.smsc_id
        )`
          : sql``;
    return sql<{ timed_out: number }>`
        WITH RECURSIVE ${foldWriteCtes(eventsFromArrays(p), p.nowMs, { several })},
        ${countMoves(p.nowMs)}${submissions}${orphans}
        SELECT coalesce(sum(n), 0) AS timed_out FROM moved WHERE status = 'timeout'`.compile(db);
  });
}

export type BatchStatements = ReturnType<typeof batchStatements>;

/**
 * Matches final receipts to their submissions, read and locked in ONE statement with their
 * recipients, and adds the matched ones to `events`. Receipts are taken in batch order, as
 * SQLite does one at a time.
 */
export async function matchLocked(
  run: RunStatement,
  st: BatchStatements,
  receipts: readonly ReceiptReport[],
  events: FoldEvents,
): Promise<MatchedReceipts> {
  const carriers: string[] = [];
  const smscIds: string[] = [];
  for (const receipt of receipts) {
    if (receipt.outcome === null) continue;
    for (const id of smscIdForms(receipt.smscId)) {
      carriers.push(receipt.carrier);
      smscIds.push(id);
    }
  }
  const found = new Map<string, Submission>();
  if (carriers.length > 0) {
    for (const row of await run(st.lockedSubmissions, { carriers, smscIds })) {
      found.set(submissionKey(row.carrier, row.smsc_id), {
        carrier: row.carrier,
        smscId: row.smsc_id,
        messageId: row.message_id,
        seq: row.seq,
        part: row.part,
        submittedAt: row.submitted_at,
      });
    }
  }
  const result = matchReceipts(receipts, (c, id) => found.get(submissionKey(c, id)), smscIdForms);
  for (const { receipt, submission } of result.matched) {
    events.add(submission.messageId, submission.seq, {
      kind: 'receipt',
      part: submission.part,
      outcome: receipt.outcome!,
      error: receipt.error,
    });
  }
  return result;
}

function submissionKey(carrier: string, smscId: string): string {
  return `${carrier}\u0000${smscId}`;
}

/** Everything one batch changes; each part may be empty. */
export interface BatchWrites {
  /** What happened to recipients, folded into their rows by the statement. */
  readonly events?: FoldEvents;
  /** Accepted parts whose submissions are stored (a reused SMSC id: the last one wins). */
  readonly accepted?: readonly AcceptedOutcome[];
  readonly deleteSubmissions?: readonly { carrier: string; smscId: string }[];
  /** Receipts kept as orphans until their submission comes (the last of one id wins). */
  readonly orphans?: readonly ReceiptReport[];
  readonly deleteOrphans?: readonly { carrier: string; smscId: string }[];
}

/**
 * Writes a batch in ONE statement (of `write`, its kind's, the one for its events): atomic, and
 * one round trip.
 * Returns how many recipients it timed out.
 */
export async function writeBatch(
  run: RunStatement,
  write: BatchStatements['outcomes'],
  writes: BatchWrites,
  nowMs: number,
): Promise<number> {
  const events = writes.events ?? new FoldEvents();
  const accepted = lastPerKey(writes.accepted ?? [], (o) =>
    submissionKey(o.carrier, normaliseSmscId(o.smscId)),
  ).sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
  const deleted = writes.deleteSubmissions ?? [];
  const orphans = lastPerKey(writes.orphans ?? [], (r) =>
    submissionKey(r.carrier, normaliseSmscId(r.smscId)),
  );
  const deletedOrphans = writes.deleteOrphans ?? [];
  if (events.size + accepted.length + deleted.length + orphans.length + deletedOrphans.length === 0)
    return 0;
  const [result] = await run(events.oneEach ? write.oneEach : write.any, {
    nowMs,
    ...eventArrays(events),
    subCarriers: accepted.map((o) => o.carrier),
    subSmscIds: accepted.map((o) => normaliseSmscId(o.smscId)),
    subMessageIds: accepted.map((o) => o.messageId),
    subSeqs: accepted.map((o) => o.seq),
    subParts: accepted.map((o) => o.part),
    acceptedMessages: [...new Set((writes.accepted ?? []).map((o) => o.messageId))],
    unsubCarriers: deleted.map((d) => d.carrier),
    unsubSmscIds: deleted.map((d) => d.smscId),
    orphanCarriers: orphans.map((r) => r.carrier),
    orphanSmscIds: orphans.map((r) => normaliseSmscId(r.smscId)),
    orphanOutcomes: orphans.map((r) => r.outcome ?? 'pending'),
    orphanErrors: orphans.map((r) => r.error),
    unorphanCarriers: deletedOrphans.map((o) => o.carrier),
    unorphanSmscIds: deletedOrphans.map((o) => o.smscId),
  });
  return Number(result?.timed_out ?? 0);
}
