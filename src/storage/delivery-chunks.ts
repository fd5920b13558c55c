// The portable statements of delivery, written once with Kysely for both engines: leasing,
// carving, loading, renewing and releasing dispatch chunks, finishing a message, and the queue
// depth. Each is compiled by the engine's own Kysely dialect and run on the connection of the
// store call's transaction (`RunQuery`), so the engine twins (sqlite/delivery-store.ts,
// postgres/delivery-store.ts) keep only what truly differs: how a chunk is picked (PostgreSQL
// locks rows and skips locked ones), the message lock a release takes on PostgreSQL, and how
// outcomes and receipts are batched into writes.
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type {
  ChunkKey,
  DispatchChunk,
  DispatchRecipient,
  FinishedMessage,
} from '../domain/delivery/delivery-store.js';
import { allParts, toPartMask, type PartMask } from '../domain/delivery/part-mask.js';
import type { Tables } from './schema.js';

/** Runs a compiled statement on the connection of the current transaction; its rows. */
export type RunQuery = <R>(query: CompiledQuery<R>) => Promise<R[]>;

/** A dispatch chunk's key and range, as its row holds them. */
export interface ChunkRow {
  message_id: number;
  first_seq: number;
  last_seq: number;
}

/** A pending message that still has recipients to carve into chunks. */
export interface DispatchableRow {
  id: number;
  dispatch_upto: number;
  materialised_upto: number;
}

/**
 * How an engine picks the chunk to lease: first first seqs, so every message's early chunks go
 * before anyone's later ones; then the pending message dispatched least, so a one-number send
 * never waits behind a campaign.
 */
export interface ChunkPicks {
  /** A chunk of a pending message whose lease ran out and whose due time came, if any. */
  due(nowMs: number): Promise<ChunkRow | undefined>;
  /** A pending message with materialised recipients not yet carved into chunks, if any. */
  dispatchable(): Promise<DispatchableRow | undefined>;
}

/** The portable chunk statements, over a Kysely instance used to compile them. */
export class DeliveryChunks {
  readonly #db: Kysely<Tables>;
  /** Parts per message; a message's part count never changes once it is accepted. */
  readonly #partsOf = new Map<number, number>();

  constructor(db: Kysely<Tables>) {
    this.#db = db;
  }

  /**
   * Leases the next chunk with due work to `owner`: one `pick.due` finds (its lease ran out or
   * its retries are due), else a new one carved from the message `pick.dispatchable` finds. The
   * picks are each engine's own: PostgreSQL locks the row it picks and skips locked ones.
   */
  async claim(
    run: RunQuery,
    pick: ChunkPicks,
    input: { owner: string; nowMs: number; leaseMs: number; chunkSize: number },
  ): Promise<DispatchChunk | null> {
    const { owner, nowMs, chunkSize } = input;
    const untilMs = nowMs + input.leaseMs;
    let chunk = await pick.due(nowMs);
    if (chunk) {
      await this.#lease(run, chunk, owner, untilMs);
    } else {
      const message = await pick.dispatchable();
      if (!message) return null;
      chunk = await this.#carve(run, message, { owner, nowMs, untilMs, chunkSize });
    }
    return this.#load(run, chunk, nowMs);
  }

  async #lease(run: RunQuery, chunk: ChunkRow, owner: string, untilMs: number): Promise<void> {
    await run(
      this.#db
        .updateTable('dispatch_chunks')
        .set({ lease_owner: owner, lease_expires_at: untilMs })
        .where('message_id', '=', chunk.message_id)
        .where('first_seq', '=', chunk.first_seq)
        .compile(),
    );
  }

  async #carve(
    run: RunQuery,
    message: DispatchableRow,
    input: { owner: string; nowMs: number; untilMs: number; chunkSize: number },
  ): Promise<ChunkRow> {
    const last = Math.min(message.materialised_upto, message.dispatch_upto + input.chunkSize);
    const chunk = { message_id: message.id, first_seq: message.dispatch_upto, last_seq: last };
    await run(
      this.#db
        .insertInto('dispatch_chunks')
        .values({
          ...chunk,
          due_at: input.nowMs,
          lease_owner: input.owner,
          lease_expires_at: input.untilMs,
        })
        .compile(),
    );
    await run(
      this.#db
        .updateTable('messages')
        .set({ dispatch_upto: last })
        .where('id', '=', message.id)
        .compile(),
    );
    return chunk;
  }

  /** A leased chunk with its message and the recipients due for a submit now. */
  async #load(run: RunQuery, chunk: ChunkRow, nowMs: number): Promise<DispatchChunk> {
    const [message] = await run(
      this.#db
        .selectFrom('messages')
        .select(['sender', 'content', 'parts'])
        .where('id', '=', chunk.message_id)
        .compile(),
    );
    if (!message) throw new Error(`message ${chunk.message_id} of a dispatch chunk is gone`);
    this.#partsOf.set(chunk.message_id, message.parts);
    const rows = await run(
      this.#db
        .selectFrom('recipients')
        .select(['seq', 'msisdn', 'first_attempt_at'])
        .select(sql<string>`CAST(parts_accepted AS TEXT)`.as('parts_accepted'))
        .where('message_id', '=', chunk.message_id)
        .where('seq', '>', chunk.first_seq)
        .where('seq', '<=', chunk.last_seq)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', nowMs)
        .where('parts_accepted', '<>', maskParameter(allParts(message.parts)))
        .orderBy('seq')
        .compile(),
    );
    return {
      messageId: chunk.message_id,
      firstSeq: chunk.first_seq,
      lastSeq: chunk.last_seq,
      sender: message.sender,
      content: message.content,
      parts: message.parts,
      recipients: rows.map((row): DispatchRecipient => ({
        seq: Number(row.seq),
        msisdn: row.msisdn,
        partsAccepted: toPartMask(row.parts_accepted),
        firstAttemptAt: row.first_attempt_at === null ? null : Number(row.first_attempt_at),
      })),
    };
  }

  /** Extends the lease of the chunks `owner` still holds, in one statement. */
  async renew(
    run: RunQuery,
    owner: string,
    chunks: readonly ChunkKey[],
    untilMs: number,
  ): Promise<void> {
    if (chunks.length === 0) return;
    // An OR of pairs, not a row-value IN list: SQLite takes row values on the right of IN
    // only from a subquery.
    await run(
      this.#db
        .updateTable('dispatch_chunks')
        .set({ lease_expires_at: untilMs })
        .where('lease_owner', '=', owner)
        .where((eb) =>
          eb.or(chunks.map((c) => eb.and({ message_id: c.messageId, first_seq: c.firstSeq }))),
        )
        .compile(),
    );
  }

  /**
   * Gives a chunk `owner` holds back: due again at its earliest retry while a recipient still
   * awaits a submit, else deleted, and then the message finished when no chunk of it is left
   * and every recipient was carved. On PostgreSQL the caller locks the message row first, so
   * that releases of one message's chunks take turns and the last one sees every deletion.
   */
  async release(
    run: RunQuery,
    owner: string,
    key: ChunkKey,
    nowMs: number,
  ): Promise<FinishedMessage | null> {
    const { messageId, firstSeq } = key;
    const [chunk] = await run(
      this.#db
        .selectFrom('dispatch_chunks')
        .select(['message_id', 'first_seq', 'last_seq'])
        .where('message_id', '=', messageId)
        .where('first_seq', '=', firstSeq)
        .where('lease_owner', '=', owner)
        .compile(),
    );
    if (!chunk) return null;
    const full = allParts(await this.#parts(run, messageId));
    const [next] = await run(
      this.#db
        .selectFrom('recipients')
        .select((eb) => eb.fn.min('next_attempt_at').as('due'))
        .where('message_id', '=', messageId)
        .where('seq', '>', firstSeq)
        .where('seq', '<=', chunk.last_seq)
        .where('status', '=', 'pending')
        .where('parts_accepted', '<>', maskParameter(full))
        .compile(),
    );
    const due = next?.due ?? null;
    if (due !== null) {
      await run(
        this.#db
          .updateTable('dispatch_chunks')
          .set({ due_at: Number(due), lease_owner: null, lease_expires_at: 0 })
          .where('message_id', '=', messageId)
          .where('first_seq', '=', firstSeq)
          .compile(),
      );
      return null;
    }
    await run(
      this.#db
        .deleteFrom('dispatch_chunks')
        .where('message_id', '=', messageId)
        .where('first_seq', '=', firstSeq)
        .compile(),
    );
    return this.finishMessage(run, messageId, nowMs);
  }

  /**
   * Makes a pending message `sent` (a carrier accepted a part of it) or `failed` (none did) once
   * every recipient was carved into chunks and no chunk is left; returns it when it did.
   */
  async finishMessage(
    run: RunQuery,
    messageId: number,
    nowMs: number,
  ): Promise<FinishedMessage | null> {
    const [finished] = await run(
      this.#db
        .updateTable('messages')
        .set((eb) => ({
          status: eb.case().when('any_accepted', '=', 1).then('sent').else('failed').end(),
          completed_at: nowMs,
          updated_at: nowMs,
        }))
        .where('id', '=', messageId)
        .where('status', '=', 'pending')
        .where((eb) => eb('dispatch_upto', '=', eb.ref('recipient_total')))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('dispatch_chunks')
                .select(sql.lit(1).as('one'))
                .where('dispatch_chunks.message_id', '=', messageId),
            ),
          ),
        )
        .returning(['id', 'account_id', 'status'])
        .compile(),
    );
    if (!finished) return null;
    const status = finished.status === 'sent' ? 'sent' : 'failed';
    return { messageId: Number(finished.id), accountId: Number(finished.account_id), status };
  }

  /** Recipients of pending messages not yet in a dispatch chunk. */
  async queueDepth(run: RunQuery): Promise<number> {
    const [row] = await run(
      this.#db
        .selectFrom('messages')
        .select(sql<number | string | null>`sum(recipient_total - dispatch_upto)`.as('depth'))
        .where('status', '=', 'pending')
        .where((eb) => eb('dispatch_upto', '<', eb.ref('recipient_total')))
        .compile(),
    );
    return Number(row?.depth ?? 0);
  }

  async #parts(run: RunQuery, messageId: number): Promise<number> {
    let parts = this.#partsOf.get(messageId);
    if (parts === undefined) {
      const [row] = await run(
        this.#db.selectFrom('messages').select('parts').where('id', '=', messageId).compile(),
      );
      parts = row?.parts ?? 1;
      this.#partsOf.set(messageId, parts);
    }
    return parts;
  }
}

/**
 * A part mask as a statement parameter: a bigint (better-sqlite3 binds it as a 64-bit integer;
 * pg sends its decimal text), typed as the schema's number column.
 */
function maskParameter(mask: PartMask) {
  return sql<number>`${mask}`;
}
