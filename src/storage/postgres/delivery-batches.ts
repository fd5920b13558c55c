// The batched statements of the PostgreSQL delivery store (delivery-store.ts): arrays passed
// whole (`unnest`), recipients read and locked in (message, seq) order (with the submissions
// receipts match, in the same statement), folded by the domain's fold (the same as SQLite's),
// and everything a batch changes written in ONE statement. SQLite's twin reads and writes a row
// at a time instead: round trips cost nothing in process. Built with Kysely's `sql` tag, each
// parameter where it is used, and compiled once (statements.ts).
import { sql, type Kysely } from 'kysely';
import {
  normaliseSmscId,
  smscIdForms,
  type PartOutcome,
  type ReceiptReport,
} from '../../domain/delivery/delivery-store.js';
import {
  EventsByRecipient,
  lastPerKey,
  matchReceipts,
  type MatchedReceipts,
  type Submission,
} from '../../domain/delivery/fold-delivery.js';
import type { CountDeltas } from '../count-deltas.js';
import {
  foldRecipients,
  recipientKey,
  selectDeliveryState,
  type ChangedRecipient,
  type DeliveryStateRow,
} from '../delivery-state-rows.js';
import type { Tables } from '../schema.js';
import { statement, type RunStatement } from '../statements.js';

export type AcceptedOutcome = Extract<PartOutcome, { kind: 'accepted' }>;

type Ids = readonly number[];
type Texts = readonly (string | null)[];

/** The batch statements, compiled once by the PostgreSQL dialect. */
export function batchStatements(db: Kysely<Tables>) {
  return {
    lockedStates: statement((p: { messageIds: Ids; seqs: Ids }) =>
      selectDeliveryState(db)
        .innerJoin(
          sql<{
            message_id: number;
            seq: number;
          }>`(SELECT * FROM unnest(${p.messageIds}::bigint[], ${p.seqs}::bigint[]) AS u(message_id, seq))`.as(
            'v',
          ),
          (join) => join.onRef('v.message_id', '=', 'r.message_id').onRef('v.seq', '=', 'r.seq'),
        )
        .orderBy('r.message_id')
        .orderBy('r.seq')
        .forUpdate('r'),
    ),
    // Each submission an id form of the batch names, with its recipient's state (a recipient
    // row is never deleted), locked in (message, seq) order as `lockedStates` locks.
    lockedSubmissions: statement((p: { carriers: Texts; smscIds: Texts }) =>
      selectDeliveryState(db)
        .innerJoin('submissions as s', (join) =>
          join.onRef('s.message_id', '=', 'r.message_id').onRef('s.seq', '=', 'r.seq'),
        )
        .innerJoin(
          sql<{
            carrier: string;
            smsc_id: string;
          }>`(SELECT DISTINCT * FROM unnest(${p.carriers}::text[], ${p.smscIds}::text[]) AS u(carrier, smsc_id))`.as(
            'v',
          ),
          (join) => join.onRef('v.carrier', '=', 's.carrier').onRef('v.smsc_id', '=', 's.smsc_id'),
        )
        .select(['s.carrier', 's.smsc_id', 's.part', 's.submitted_at'])
        .orderBy('r.message_id')
        .orderBy('r.seq')
        .orderBy('s.carrier')
        .orderBy('s.smsc_id')
        .forUpdate(['r', 's']),
    ),
    // Everything one batch changes, in ONE statement (data-modifying CTEs): atomic, and one
    // round trip.
    write: statement(
      (p: {
        nowMs: number;
        subCarriers: Texts;
        subSmscIds: Texts;
        subMessageIds: Ids;
        subSeqs: Ids;
        subParts: Ids;
        acceptedMessages: Ids;
        unsubCarriers: Texts;
        unsubSmscIds: Texts;
        recMessageIds: Ids;
        recSeqs: Ids;
        recStatuses: Texts;
        recErrors: Texts;
        recAttempts: Ids;
        recPartsAccepted: Texts;
        recPartsDelivered: Texts;
        recNextAttemptAt: Ids;
        recFirstAttemptAt: readonly (number | null)[];
        recUpdatedAt: Ids;
        orphanCarriers: Texts;
        orphanSmscIds: Texts;
        orphanOutcomes: Texts;
        orphanErrors: Texts;
        unorphanCarriers: Texts;
        unorphanSmscIds: Texts;
        countMessageIds: Ids;
        countStatuses: Texts;
        countDeltas: Ids;
      }) =>
        sql`
        WITH ins AS (
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
        ), del AS (
          DELETE FROM submissions s
          USING unnest(${p.unsubCarriers}::text[], ${p.unsubSmscIds}::text[]) v(carrier, smsc_id)
          WHERE s.carrier = v.carrier AND s.smsc_id = v.smsc_id
        ), upd AS (
          UPDATE recipients r SET status = v.status, error = v.error, attempts = v.attempts,
            parts_accepted = v.parts_accepted, parts_delivered = v.parts_delivered,
            next_attempt_at = v.next_attempt_at, first_attempt_at = v.first_attempt_at,
            updated_at = v.updated_at
          FROM unnest(${p.recMessageIds}::bigint[], ${p.recSeqs}::bigint[],
            ${p.recStatuses}::text[], ${p.recErrors}::text[], ${p.recAttempts}::bigint[],
            ${p.recPartsAccepted}::bigint[], ${p.recPartsDelivered}::bigint[],
            ${p.recNextAttemptAt}::bigint[], ${p.recFirstAttemptAt}::bigint[],
            ${p.recUpdatedAt}::bigint[])
            v(message_id, seq, status, error, attempts, parts_accepted, parts_delivered,
              next_attempt_at, first_attempt_at, updated_at)
          WHERE r.message_id = v.message_id AND r.seq = v.seq
        ), orphaned AS (
          INSERT INTO orphan_receipts (carrier, smsc_id, outcome, error, received_at)
          SELECT v.*, ${p.nowMs}::bigint
          FROM unnest(${p.orphanCarriers}::text[], ${p.orphanSmscIds}::text[],
            ${p.orphanOutcomes}::text[], ${p.orphanErrors}::text[]) v
          ON CONFLICT (carrier, smsc_id) DO UPDATE SET outcome = excluded.outcome,
            error = excluded.error, received_at = excluded.received_at
        ), unorphaned AS (
          DELETE FROM orphan_receipts o
          USING unnest(${p.unorphanCarriers}::text[], ${p.unorphanSmscIds}::text[])
            v(carrier, smsc_id)
          WHERE o.carrier = v.carrier AND o.smsc_id = v.smsc_id
        )
        INSERT INTO message_counts (message_id, status, count)
        SELECT * FROM unnest(${p.countMessageIds}::bigint[], ${p.countStatuses}::text[],
          ${p.countDeltas}::bigint[])
        ON CONFLICT (message_id, status) DO UPDATE SET count = message_counts.count + excluded.count`.compile(
          db,
        ),
    ),
  };
}

export type BatchStatements = ReturnType<typeof batchStatements>;

/** Reads and locks the recipients of `events`, folds them; returns the rows that changed. */
export async function foldLocked(
  run: RunStatement,
  st: BatchStatements,
  events: EventsByRecipient,
  nowMs: number,
  counts: CountDeltas,
): Promise<ChangedRecipient[]> {
  if (events.size === 0) return [];
  const groups = events.sorted();
  const rows = await run(st.lockedStates, {
    messageIds: groups.map((g) => g.messageId),
    seqs: groups.map((g) => g.seq),
  });
  const byKey = new Map(rows.map((row) => [recipientKey(row.message_id, row.seq), row]));
  return foldRecipients(groups, (m, s) => byKey.get(recipientKey(m, s)), nowMs, counts);
}

/**
 * Matches final receipts to their submissions and folds them into their recipients, reading
 * both in ONE locked statement. Receipts are taken in batch order, as SQLite does one at a time.
 */
export async function matchAndFoldLocked(
  run: RunStatement,
  st: BatchStatements,
  receipts: readonly ReceiptReport[],
  nowMs: number,
  counts: CountDeltas,
): Promise<MatchedReceipts & { recipients: ChangedRecipient[] }> {
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
  const states = new Map<string, DeliveryStateRow>();
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
      states.set(recipientKey(row.message_id, row.seq), row);
    }
  }
  const result = matchReceipts(receipts, (c, id) => found.get(submissionKey(c, id)), smscIdForms);
  const recipients = foldRecipients(
    receiptEvents(result.matched).sorted(),
    (m, seq) => states.get(recipientKey(m, seq)),
    nowMs,
    counts,
  );
  return { ...result, recipients };
}

/** The receipt events of matched receipts, by recipient. */
function receiptEvents(matched: MatchedReceipts['matched']): EventsByRecipient {
  const events = new EventsByRecipient();
  for (const { receipt, submission } of matched) {
    events.add(submission.messageId, submission.seq, {
      kind: 'receipt',
      part: submission.part,
      outcome: receipt.outcome!,
      error: receipt.error,
    });
  }
  return events;
}

function submissionKey(carrier: string, smscId: string): string {
  return `${carrier}\u0000${smscId}`;
}

/** Everything one batch changes; each part may be empty. */
export interface BatchWrites {
  /** Accepted parts whose submissions are stored (a reused SMSC id: the last one wins). */
  readonly accepted?: readonly AcceptedOutcome[];
  readonly deleteSubmissions?: readonly { carrier: string; smscId: string }[];
  readonly recipients?: readonly ChangedRecipient[];
  /** Receipts kept as orphans until their submission comes (the last of one id wins). */
  readonly orphans?: readonly ReceiptReport[];
  readonly deleteOrphans?: readonly { carrier: string; smscId: string }[];
  readonly counts?: CountDeltas;
}

/** Writes a batch in ONE statement: atomic, and one round trip. */
export async function writeBatch(
  run: RunStatement,
  st: BatchStatements,
  writes: BatchWrites,
  nowMs: number,
): Promise<void> {
  const accepted = lastPerKey(writes.accepted ?? [], (o) =>
    submissionKey(o.carrier, normaliseSmscId(o.smscId)),
  ).sort((a, b) => a.messageId - b.messageId || a.seq - b.seq);
  const deleted = writes.deleteSubmissions ?? [];
  const recipients = writes.recipients ?? [];
  const orphans = lastPerKey(writes.orphans ?? [], (r) =>
    submissionKey(r.carrier, normaliseSmscId(r.smscId)),
  );
  const deletedOrphans = writes.deleteOrphans ?? [];
  const counts = writes.counts?.entries() ?? [];
  if (
    accepted.length +
      deleted.length +
      recipients.length +
      orphans.length +
      deletedOrphans.length +
      counts.length ===
    0
  )
    return;
  const states = recipients.map((r) => r.state);
  await run(st.write, {
    nowMs,
    subCarriers: accepted.map((o) => o.carrier),
    subSmscIds: accepted.map((o) => normaliseSmscId(o.smscId)),
    subMessageIds: accepted.map((o) => o.messageId),
    subSeqs: accepted.map((o) => o.seq),
    subParts: accepted.map((o) => o.part),
    acceptedMessages: [...new Set((writes.accepted ?? []).map((o) => o.messageId))],
    unsubCarriers: deleted.map((d) => d.carrier),
    unsubSmscIds: deleted.map((d) => d.smscId),
    recMessageIds: recipients.map((r) => r.messageId),
    recSeqs: recipients.map((r) => r.seq),
    recStatuses: states.map((s) => s.status),
    recErrors: states.map((s) => s.error),
    recAttempts: states.map((s) => s.attempts),
    recPartsAccepted: states.map((s) => s.partsAccepted.toString()),
    recPartsDelivered: states.map((s) => s.partsDelivered.toString()),
    recNextAttemptAt: states.map((s) => s.nextAttemptAt),
    recFirstAttemptAt: states.map((s) => s.firstAttemptAt),
    recUpdatedAt: states.map((s) => s.updatedAt),
    orphanCarriers: orphans.map((r) => r.carrier),
    orphanSmscIds: orphans.map((r) => normaliseSmscId(r.smscId)),
    orphanOutcomes: orphans.map((r) => r.outcome ?? 'pending'),
    orphanErrors: orphans.map((r) => r.error),
    unorphanCarriers: deletedOrphans.map((o) => o.carrier),
    unorphanSmscIds: deletedOrphans.map((o) => o.smscId),
    countMessageIds: counts.map((e) => e.messageId),
    countStatuses: counts.map((e) => e.status),
    countDeltas: counts.map((e) => e.delta),
  });
}
