// The one delivery fold (ADR 0045, after ADR 0020): a batch's events applied to their
// recipients' rows inside the database, by one SQL text both engines run, so that a recipient's
// state never travels to the dispatcher and back. The rules are written here once; each engine
// only says how the batch's events arrive (PostgreSQL: arrays, `unnest`; SQLite: one JSON text,
// `jsonb_each`) and whether the rows are locked (PostgreSQL, any number of dispatchers).
import { sql, type RawBuilder } from 'kysely';
import { NO_RECEIPT, type DeliveryEvent } from '../domain/delivery/delivery-events.js';
import type { RecipientStatus } from '../domain/statuses.js';

/**
 * A batch's events in the order they happened, as columns: what both engines pass to the fold.
 * `n` numbers each recipient's events from 1 in that order and `last` marks its last one, so
 * that the statement steps from one event to the next by key (no sort in the database);
 * `status` is a `final` outcome's status or a receipt's outcome; `nextAt` a retry's next attempt.
 */
export class FoldEvents {
  readonly messageIds: number[] = [];
  readonly seqs: number[] = [];
  readonly ns: number[] = [];
  readonly lasts: boolean[] = [];
  readonly kinds: DeliveryEvent['kind'][] = [];
  readonly parts: (number | null)[] = [];
  readonly statuses: (string | null)[] = [];
  readonly errors: (string | null)[] = [];
  readonly nextAts: (number | null)[] = [];
  /** Each recipient's last event so far, by index, by message and seq. */
  readonly #last = new Map<number, Map<number, number>>();
  #recipients = 0;

  add(messageId: number, seq: number, event: DeliveryEvent): void {
    let bySeq = this.#last.get(messageId);
    if (!bySeq) this.#last.set(messageId, (bySeq = new Map()));
    const before = bySeq.get(seq);
    const index = this.messageIds.length;
    bySeq.set(seq, index);
    if (before === undefined) this.#recipients++;
    else this.lasts[before] = false;
    this.messageIds.push(messageId);
    this.seqs.push(seq);
    this.ns.push(before === undefined ? 1 : this.ns[before]! + 1);
    this.lasts.push(true);
    this.kinds.push(event.kind);
    this.parts.push('part' in event ? event.part : null);
    this.statuses.push(
      event.kind === 'final' ? event.status : event.kind === 'receipt' ? event.outcome : null,
    );
    this.errors.push('error' in event ? event.error : null);
    this.nextAts.push(event.kind === 'retry' ? event.nextAttemptAt : null);
  }

  get size(): number {
    return this.messageIds.length;
  }

  /** No recipient has more than one event. */
  get oneEach(): boolean {
    return this.#recipients === this.messageIds.length;
  }

  /**
   * One JSON text of rows `[messageId, seq, n, last (0/1), kind, part, status, error, nextAt]`
   * (SQLite).
   */
  json(): string {
    const rows = new Array<unknown[]>(this.size);
    for (let i = 0; i < rows.length; i++) {
      rows[i] = [
        this.messageIds[i],
        this.seqs[i],
        this.ns[i],
        this.lasts[i] ? 1 : 0,
        this.kinds[i],
        this.parts[i],
        this.statuses[i],
        this.errors[i],
        this.nextAts[i],
      ];
    }
    return JSON.stringify(rows);
  }
}

/**
 * The events of a batch as SQLite reads them: `FoldEvents.json()` bound as `json`, parsed once
 * into JSONB (`jsonb_each`), so that reading a row's fields does not parse its text again.
 */
export function eventsFromJson(json: unknown): RawBuilder<unknown> {
  return sql`SELECT value ->> 0 AS message_id, value ->> 1 AS seq, value ->> 2 AS n,
    value ->> 3 AS last, value ->> 4 AS kind, value ->> 5 AS part, value ->> 6 AS status,
    value ->> 7 AS error, value ->> 8 AS next_at
    FROM jsonb_each(${json})`;
}

/** `FoldEvents`' columns as PostgreSQL arrays (`eventArrays`), named as `eventsFromArrays` binds them. */
export interface EventArrays {
  evMessageIds: readonly number[];
  evSeqs: readonly number[];
  evNs: readonly number[];
  evLasts: readonly number[];
  evKinds: readonly string[];
  evParts: readonly (number | null)[];
  evStatuses: readonly (string | null)[];
  evErrors: readonly (string | null)[];
  evNextAts: readonly (number | null)[];
}

/**
 * `events`' columns as arrays, in (message, seq) order and each recipient's in batch order: the
 * order in which `foldWriteCtes` locks their rows (the order of events matters only between
 * those of one recipient).
 */
export function eventArrays(events: FoldEvents): EventArrays {
  const { messageIds, seqs, ns } = events;
  const before = (a: number, b: number) =>
    messageIds[a]! - messageIds[b]! || seqs[a]! - seqs[b]! || ns[a]! - ns[b]!;
  let sorted = true;
  for (let i = 1; sorted && i < events.size; i++) sorted = before(i - 1, i) <= 0;
  if (sorted) {
    return {
      evMessageIds: messageIds,
      evSeqs: seqs,
      evNs: ns,
      evLasts: events.lasts.map(Number),
      evKinds: events.kinds,
      evParts: events.parts,
      evStatuses: events.statuses,
      evErrors: events.errors,
      evNextAts: events.nextAts,
    };
  }
  const order = Array.from({ length: events.size }, (_, i) => i).sort(before);
  const pick = <T>(column: readonly T[]) => order.map((i) => column[i] as T);
  return {
    evMessageIds: pick(events.messageIds),
    evSeqs: pick(events.seqs),
    evNs: pick(events.ns),
    evLasts: pick(events.lasts).map(Number),
    evKinds: pick(events.kinds),
    evParts: pick(events.parts),
    evStatuses: pick(events.statuses),
    evErrors: pick(events.errors),
    evNextAts: pick(events.nextAts),
  };
}

/** The events of a batch as PostgreSQL reads them: arrays, `unnest`. */
export function eventsFromArrays(p: EventArrays): RawBuilder<unknown> {
  return sql`SELECT * FROM unnest(${p.evMessageIds}::bigint[], ${p.evSeqs}::bigint[],
    ${p.evNs}::bigint[], ${p.evLasts}::int[], ${p.evKinds}::text[], ${p.evParts}::int[],
    ${p.evStatuses}::text[], ${p.evErrors}::text[], ${p.evNextAts}::bigint[])
    AS e(message_id, seq, n, last, kind, part, status, error, next_at)`;
}

/**
 * The fold's common table expressions, to follow `WITH RECURSIVE`. `events` is a SELECT of
 * `(message_id, seq, n, last, kind, part, status, error, next_at)`, as `FoldEvents` has them
 * (`last` 1 or 0).
 * They end in `folded`: the new state of every recipient the batch moves, one row each.
 *
 * The rules, applied to each recipient's events in batch order (the recursion takes one event
 * per step), so that folding a batch equals folding its events one at a time:
 *
 * - A final recipient never changes: only pending rows are folded (and written), and a step on a
 *   row that has become final keeps it as it is.
 * - A submit outcome counts one attempt: `accepted` adds its part to `parts_accepted`; `retry`
 *   holds the recipient back until its `next_at`, starts its retry window (`first_attempt_at`)
 *   and keeps its error (the last one wins); `final` makes it final with its status and error.
 * - A receipt: DELIVRD adds its part to `parts_delivered`, and the recipient is `success` (error
 *   cleared) once every part of its message is delivered; any other final receipt makes it
 *   final with that outcome and that receipt's error (null when it gave none).
 * - `timeout` (the sweep) makes it final: `timeout`, "no receipt".
 * - `updated_at` moves only when the status does.
 *
 * Part masks are 63-bit integers on both engines (domain/delivery/part-mask.ts). With `lock`
 * the rows are locked in (message, seq) order before they are read, as every writer of
 * recipients locks them, so that a row another transaction changed meanwhile is read as it now is
 * (and left out once final). The rows are found by their key alone: a plan that searched them by
 * status scanned every row of a message per event.
 */
export function foldCtes(
  events: RawBuilder<unknown>,
  nowMs: unknown,
  { lock }: { lock: boolean },
): RawBuilder<unknown> {
  return sql`${eventsCte(events)}, ${recursiveCtes(nowMs, { lock, several: false })}`;
}

/**
 * The fold written to the recipients' rows (PostgreSQL), as common table expressions to follow
 * `WITH RECURSIVE`, ending in `upd`: each written row's key (message_id, seq), new status,
 * msisdn and updated_at. `events` as for
 * `foldCtes`.
 *
 * A recipient with one event in the batch (the usual case: a batch of submit outcomes, or of
 * receipts of one-part messages) takes one step, which is the SET of an UPDATE (`once`): its row
 * is not read before it is written, and is locked by the UPDATE itself, in the order of `ev`
 * (`eventArrays` sends it in (message, seq) order); a row another transaction changed meanwhile
 * is checked again and stepped from its new state, as PostgreSQL does for any UPDATE. The
 * recipients with several events take the recursion of `foldCtes`, their rows locked first in
 * (message, seq) order, and are written from `folded`. Without `several` the statement has no
 * recursion, for a batch known to give no recipient more than one event (`FoldEvents.oneEach`):
 * it is planned in half the time.
 */
export function foldWriteCtes(
  events: RawBuilder<unknown>,
  nowMs: unknown,
  { several }: { several: boolean },
): RawBuilder<unknown> {
  const set = stepExpressions('r', 'k', sql`k.every`, nowMs).map(
    ([column, value]) => sql`${sql.raw(column)} = ${value}`,
  );
  // Pending is compared with a column of `ev`, not with a constant, so that the planner cannot
  // search the rows by status: with the statistics of a message just materialised, it judged
  // that cheaper than by key, and read every pending row of the message at every batch.
  return sql`
    ${eventsCte(events)}, once AS (
      UPDATE recipients r SET ${sql.join(set)}
      FROM ev k
      WHERE k.n = 1 AND k.last = 1
        AND r.message_id = k.message_id AND r.seq = k.seq AND r.status = k.pending
      RETURNING r.message_id, r.seq, r.status, r.msisdn, r.updated_at
    ), ${
      several
        ? sql`${recursiveCtes(nowMs, { lock: true, several: true })}, several AS (
      UPDATE recipients SET status = f.status, error = f.error, attempts = f.attempts,
        parts_accepted = f.parts_accepted, parts_delivered = f.parts_delivered,
        next_attempt_at = f.next_attempt_at, first_attempt_at = f.first_attempt_at,
        updated_at = f.updated_at
      FROM folded f
      WHERE recipients.message_id = f.message_id AND recipients.seq = f.seq
      RETURNING recipients.message_id, recipients.seq, recipients.status, recipients.msisdn,
        recipients.updated_at
    ), upd AS (
      SELECT * FROM once UNION ALL SELECT * FROM several
    )`
        : sql`upd AS (SELECT * FROM once)`
    }`;
}

/**
 * The recursion of the fold over `ev`, ending in `folded`; with `several`, of the recipients
 * with more than one event only.
 */
function recursiveCtes(
  nowMs: unknown,
  { lock, several }: { lock: boolean; several: boolean },
): RawBuilder<unknown> {
  const state = (f: string, e: string) =>
    sql.join(stepExpressions(f, e, sql.raw(`${f}.every`), nowMs).map(([, value]) => value));
  return sql`start AS (
      SELECT r.message_id, r.seq, r.msisdn, CAST(r.status AS TEXT) AS status,
        CAST(r.error AS TEXT) AS error, r.attempts, r.parts_accepted, r.parts_delivered,
        r.next_attempt_at, r.first_attempt_at, r.updated_at, k.every,
        k.n, k.last, k.kind, k.next_at, k.attempt, k.accepts, k.delivers, k.ends_as,
        k.event_error
      FROM ev k
      JOIN recipients r ON r.message_id = k.message_id AND r.seq = k.seq
      WHERE k.n = 1 ${several ? sql`AND k.last = 0` : sql``}
      ${lock ? sql`ORDER BY r.message_id, r.seq FOR UPDATE OF r` : sql``}
    ), fold (message_id, seq, msisdn, n, last, ${sql.join(STATE.map((c) => sql.raw(c)))}, every) AS (
      SELECT s.message_id, s.seq, s.msisdn, s.n, s.last, ${state('s', 's')}, s.every
      FROM start s WHERE s.status = 'pending'
      UNION ALL
      SELECT f.message_id, f.seq, f.msisdn, e.n, e.last, ${state('f', 'e')}, f.every
      FROM fold f JOIN ev e ON e.message_id = f.message_id AND e.seq = f.seq AND e.n = f.n + 1
    ), folded AS (
      SELECT * FROM fold WHERE last = 1
    )`;
}

/** A recipient's state as the fold writes it, column by column. */
const STATE = [
  'status',
  'error',
  'attempts',
  'parts_accepted',
  'parts_delivered',
  'next_attempt_at',
  'first_attempt_at',
  'updated_at',
] as const;

/** `ev`: the batch's events with what each does to a recipient's columns (the rules below). */
function eventsCte(events: RawBuilder<unknown>): RawBuilder<unknown> {
  const bit = sql`(CAST(1 AS BIGINT) << CAST(e.part AS INTEGER))`;
  // Every part of the message, 2^parts - 1, without overflowing 64 bits at 63 parts.
  const everyPart = sql`((((CAST(1 AS BIGINT) << CAST(m.parts - 1 AS INTEGER)) - 1) * 2) + 1)`;
  return sql`ev AS MATERIALIZED (
      SELECT e.message_id, e.seq, e.n, e.last, e.kind, e.next_at,
        CASE WHEN e.kind IN ('accepted', 'retry', 'final') THEN 1 ELSE 0 END AS attempt,
        CASE WHEN e.kind = 'accepted' THEN ${bit} ELSE 0 END AS accepts,
        CASE WHEN e.kind = 'receipt' AND e.status = 'success' THEN ${bit} ELSE 0 END AS delivers,
        CASE
          WHEN e.kind = 'final' OR (e.kind = 'receipt' AND e.status <> 'success') THEN e.status
          WHEN e.kind = 'timeout' THEN 'timeout'
        END AS ends_as,
        CASE WHEN e.kind = 'timeout' THEN ${NO_RECEIPT} ELSE e.error END AS event_error,
        ${everyPart} AS every, 'pending' AS pending
      FROM (${events}) AS e
      JOIN messages m ON m.id = e.message_id
    )`;
}

/**
 * One step of the fold, the rules of `foldCtes`: each column of `STATE` of the state `s` (a row
 * with those columns) after the event `v` (a row of `ev`), `every` being every part of its
 * message. A step on a final state keeps it as it is.
 */
function stepExpressions(
  f: string,
  e: string,
  every: RawBuilder<unknown>,
  nowMs: unknown,
): [(typeof STATE)[number], RawBuilder<unknown>][] {
  const [s, v] = [sql.raw(f), sql.raw(e)];
  const now = sql`CAST(${nowMs} AS BIGINT)`;
  const pending = sql`${s}.status = 'pending'`;
  // The event delivers the recipient's last undelivered part.
  const completes = sql`(${v}.delivers <> 0 AND (${s}.parts_delivered | ${v}.delivers) = ${every})`;
  return [
    [
      'status',
      sql`CASE
        WHEN NOT ${pending} THEN ${s}.status
        WHEN ${v}.ends_as IS NOT NULL THEN ${v}.ends_as
        WHEN ${completes} THEN 'success'
        ELSE ${s}.status
      END`,
    ],
    [
      'error',
      sql`CASE
        WHEN NOT ${pending} THEN ${s}.error
        WHEN ${v}.ends_as IS NOT NULL OR ${v}.kind = 'retry' THEN ${v}.event_error
        WHEN ${completes} THEN NULL
        ELSE ${s}.error
      END`,
    ],
    ['attempts', sql`${s}.attempts + CASE WHEN ${pending} THEN ${v}.attempt ELSE 0 END`],
    [
      'parts_accepted',
      sql`CASE WHEN ${pending} THEN ${s}.parts_accepted | ${v}.accepts ELSE ${s}.parts_accepted END`,
    ],
    [
      'parts_delivered',
      sql`CASE WHEN ${pending} THEN ${s}.parts_delivered | ${v}.delivers ELSE ${s}.parts_delivered END`,
    ],
    [
      'next_attempt_at',
      sql`CASE WHEN ${pending} AND ${v}.kind = 'retry' THEN ${v}.next_at ELSE ${s}.next_attempt_at END`,
    ],
    [
      'first_attempt_at',
      sql`CASE WHEN ${pending} AND ${v}.kind = 'retry'
        THEN coalesce(${s}.first_attempt_at, ${now}) ELSE ${s}.first_attempt_at END`,
    ],
    [
      'updated_at',
      sql`CASE WHEN ${pending} AND (${v}.ends_as IS NOT NULL OR ${completes})
        THEN ${now} ELSE ${s}.updated_at END`,
    ],
  ];
}

/** The rows of `folded`, masks as text (so that no driver rounds them through a double). */
export const selectFolded = sql`
  SELECT message_id, seq, msisdn, status, error, attempts,
    CAST(parts_accepted AS TEXT) AS parts_accepted, CAST(parts_delivered AS TEXT) AS parts_delivered,
    next_attempt_at, first_attempt_at, updated_at
  FROM folded`;

/** A row of `folded`. */
export interface FoldedRow {
  message_id: number;
  seq: number;
  /** Carried along for the webhook outbox's final recipients; the fold never changes it. */
  msisdn: string;
  status: RecipientStatus;
  error: string | null;
  attempts: number;
  parts_accepted: string;
  parts_delivered: string;
  next_attempt_at: number;
  first_attempt_at: number | null;
  updated_at: number;
}
