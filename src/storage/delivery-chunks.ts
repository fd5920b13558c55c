// The chunk statements of delivery, written once with Kysely for both engines and compiled once
// (statements.ts): leasing, carving, loading, renewing and releasing dispatch chunks, finishing
// a message, and the queue depth. Where the engines differ is one option, `lock`: PostgreSQL,
// with any number of dispatchers, picks a chunk or a message with `FOR UPDATE SKIP LOCKED` (two
// dispatchers never lease the same chunk and never wait for each other to do so) and a release
// locks its message row first; SQLite has one writer, so its picks need no row locks.
import { outboxStatements } from './webhook-outbox.js';
import { sql, type Kysely } from 'kysely';
import type {
  ChunkKey,
  DispatchChunk,
  DispatchRecipient,
  FinishedMessage,
} from '../domain/delivery/delivery-store.js';
import { allParts, toPartMask, type PartMask } from '../domain/delivery/part-mask.js';
import type { Tables } from './schema.js';
import { statement, type RunStatement } from './statements.js';

export interface ChunkOptions {
  /** Pick with `FOR UPDATE SKIP LOCKED` and lock a message row before releasing its chunk. */
  readonly lock: boolean;
}

/** The portable chunk statements, compiled by the engine's own Kysely dialect. */
export class DeliveryChunks {
  readonly #lock: boolean;
  readonly #st: ReturnType<typeof chunkStatements>;
  readonly #outbox: ReturnType<typeof outboxStatements>;

  constructor(db: Kysely<Tables>, options: ChunkOptions) {
    this.#lock = options.lock;
    this.#st = chunkStatements(db, options);
    this.#outbox = outboxStatements(db);
  }

  /**
   * Leases the next chunk with due work to `owner`: one whose lease ran out or whose retries
   * are due, else a new one carved from the pending message dispatched least.
   */
  async claim(
    run: RunStatement,
    input: { owner: string; nowMs: number; leaseMs: number; chunkSize: number },
  ): Promise<DispatchChunk | null> {
    const { owner, nowMs, chunkSize } = input;
    const untilMs = nowMs + input.leaseMs;
    const st = this.#st;
    let [chunk] = await run(st.pickDue, { nowMs });
    if (chunk) {
      await run(st.lease, {
        owner,
        untilMs,
        messageId: chunk.message_id,
        firstSeq: chunk.first_seq,
      });
    } else {
      const [message] = await run(st.pickDispatchable, {});
      if (!message) return null;
      const lastSeq = Math.min(message.materialised_upto, message.dispatch_upto + chunkSize);
      chunk = { message_id: message.id, first_seq: message.dispatch_upto, last_seq: lastSeq };
      await run(st.carve, {
        messageId: message.id,
        firstSeq: message.dispatch_upto,
        lastSeq,
        nowMs,
        owner,
        untilMs,
      });
      await run(st.dispatchUpto, { messageId: message.id, lastSeq });
    }
    return this.#load(run, chunk, nowMs);
  }

  /** A leased chunk with its message and the recipients due for a submit now. */
  async #load(
    run: RunStatement,
    chunk: { message_id: number; first_seq: number; last_seq: number },
    nowMs: number,
  ): Promise<DispatchChunk> {
    const [message] = await run(this.#st.message, { messageId: chunk.message_id });
    if (!message) throw new Error(`message ${chunk.message_id} of a dispatch chunk is gone`);
    const rows = await run(this.#st.dueRecipients, {
      messageId: chunk.message_id,
      firstSeq: chunk.first_seq,
      lastSeq: chunk.last_seq,
      nowMs,
      full: allParts(message.parts),
    });
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

  /** Extends the lease of the chunks `owner` still holds. */
  async renew(
    run: RunStatement,
    owner: string,
    chunks: readonly ChunkKey[],
    untilMs: number,
  ): Promise<void> {
    for (const chunk of chunks) {
      await run(this.#st.renew, {
        owner,
        untilMs,
        messageId: chunk.messageId,
        firstSeq: chunk.firstSeq,
      });
    }
  }

  /**
   * Gives a chunk `owner` holds back: due again at its earliest retry while a recipient still
   * awaits a submit, else deleted, and then the message finished when no chunk of it is left
   * and every recipient was carved. With `lock`, the message row is locked first, so that
   * releases of one message's chunks take turns and the last one sees every deletion.
   */
  async release(
    run: RunStatement,
    owner: string,
    key: ChunkKey,
    nowMs: number,
  ): Promise<FinishedMessage | null> {
    const { messageId, firstSeq } = key;
    const st = this.#st;
    if (this.#lock) await run(st.lockMessage, { messageId });
    // The message's part count comes with the chunk: nothing is kept per message between calls,
    // so a dispatcher's memory does not grow with the messages it ever claimed.
    const [chunk] = await run(st.ownChunk, { messageId, firstSeq, owner });
    if (!chunk) return null;
    const [next] = await run(st.nextDue, {
      messageId,
      firstSeq,
      lastSeq: chunk.last_seq,
      full: allParts(chunk.parts),
    });
    const due = next?.due ?? null;
    if (due !== null) {
      await run(st.dueAgain, { messageId, firstSeq, dueAt: Number(due) });
      return null;
    }
    await run(st.deleteChunk, { messageId, firstSeq });
    return this.finishMessage(run, messageId, nowMs);
  }

  /**
   * Makes a pending message `sent` (a carrier accepted a part of it) or `failed` (none did) once
   * every recipient was carved into chunks and no chunk is left; returns it when it did.
   */
  async finishMessage(
    run: RunStatement,
    messageId: number,
    nowMs: number,
  ): Promise<FinishedMessage | null> {
    const [finished] = await run(this.#st.finishMessage, { messageId, nowMs });
    if (!finished) return null;
    const status = finished.status === 'sent' ? 'sent' : 'failed';
    const accountId = Number(finished.account_id);
    // Its last recipients may have become final before its last chunk was released: the
    // webhook fan-out checks whether it is complete (webhook-outbox.ts).
    await run(this.#outbox.finishedCheck, {
      accountId,
      payload: JSON.stringify({ messageId }),
      nowMs,
    });
    return { messageId: Number(finished.id), accountId, status };
  }

  /** Recipients of pending messages not yet in a dispatch chunk. */
  async queueDepth(run: RunStatement): Promise<number> {
    const [row] = await run(this.#st.queueDepth, {});
    return Number(row?.depth ?? 0);
  }
}

type Key = { messageId: number; firstSeq: number };

function chunkStatements(db: Kysely<Tables>, { lock }: ChunkOptions) {
  return {
    // Leased chunks whose lease ran out, or whose retries are due; first seqs first, so every
    // message's early chunks go before anyone's later ones.
    pickDue: statement((p: { nowMs: number }) => {
      const query = db
        .selectFrom('dispatch_chunks as c')
        .innerJoin('messages as m', 'm.id', 'c.message_id')
        .select(['c.message_id', 'c.first_seq', 'c.last_seq'])
        .where('c.due_at', '<=', p.nowMs)
        .where('c.lease_expires_at', '<=', p.nowMs)
        .where('m.status', '=', 'pending')
        .orderBy('c.first_seq')
        .orderBy('c.message_id')
        .limit(1);
      return lock ? query.forUpdate('c').skipLocked() : query;
    }),
    // The pending message with recipients not yet carved that was dispatched least, so a
    // one-number send never waits behind a campaign.
    pickDispatchable: statement((_: Record<string, never>) => {
      const query = db
        .selectFrom('messages')
        .select(['id', 'dispatch_upto', 'materialised_upto'])
        .where('status', '=', 'pending')
        .where((eb) => eb('dispatch_upto', '<', eb.ref('recipient_total')))
        .where((eb) => eb('dispatch_upto', '<', eb.ref('materialised_upto')))
        .orderBy('dispatch_upto')
        .orderBy('id')
        .limit(1);
      return lock ? query.forUpdate().skipLocked() : query;
    }),
    lease: statement((p: Key & { owner: string; untilMs: number }) =>
      db
        .updateTable('dispatch_chunks')
        .set({ lease_owner: p.owner, lease_expires_at: p.untilMs })
        .where('message_id', '=', p.messageId)
        .where('first_seq', '=', p.firstSeq),
    ),
    carve: statement(
      (p: Key & { lastSeq: number; nowMs: number; owner: string; untilMs: number }) =>
        db.insertInto('dispatch_chunks').values({
          message_id: p.messageId,
          first_seq: p.firstSeq,
          last_seq: p.lastSeq,
          due_at: p.nowMs,
          lease_owner: p.owner,
          lease_expires_at: p.untilMs,
        }),
    ),
    dispatchUpto: statement((p: { messageId: number; lastSeq: number }) =>
      db.updateTable('messages').set({ dispatch_upto: p.lastSeq }).where('id', '=', p.messageId),
    ),
    message: statement((p: { messageId: number }) =>
      db
        .selectFrom('messages')
        .select(['sender', 'content', 'parts'])
        .where('id', '=', p.messageId),
    ),
    dueRecipients: statement((p: Key & { lastSeq: number; nowMs: number; full: PartMask }) =>
      db
        .selectFrom('recipients')
        .select(['seq', 'msisdn', 'first_attempt_at'])
        .select(sql<string>`CAST(parts_accepted AS TEXT)`.as('parts_accepted'))
        .where('message_id', '=', p.messageId)
        .where('seq', '>', p.firstSeq)
        .where('seq', '<=', p.lastSeq)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', p.nowMs)
        .where('parts_accepted', '<>', mask(p.full))
        .orderBy('seq'),
    ),
    // One statement per chunk: an OR of pairs would make a text per count of chunks.
    renew: statement((p: Key & { owner: string; untilMs: number }) =>
      db
        .updateTable('dispatch_chunks')
        .set({ lease_expires_at: p.untilMs })
        .where('lease_owner', '=', p.owner)
        .where('message_id', '=', p.messageId)
        .where('first_seq', '=', p.firstSeq),
    ),
    lockMessage: statement((p: { messageId: number }) =>
      db.selectFrom('messages').select('id').where('id', '=', p.messageId).forUpdate(),
    ),

    ownChunk: statement((p: Key & { owner: string }) =>
      db
        .selectFrom('dispatch_chunks as c')
        .innerJoin('messages as m', 'm.id', 'c.message_id')
        .select(['c.last_seq', 'm.parts'])
        .where('c.message_id', '=', p.messageId)
        .where('c.first_seq', '=', p.firstSeq)
        .where('c.lease_owner', '=', p.owner),
    ),
    nextDue: statement((p: Key & { lastSeq: number; full: PartMask }) =>
      db
        .selectFrom('recipients')
        .select((eb) => eb.fn.min('next_attempt_at').as('due'))
        .where('message_id', '=', p.messageId)
        .where('seq', '>', p.firstSeq)
        .where('seq', '<=', p.lastSeq)
        .where('status', '=', 'pending')
        .where('parts_accepted', '<>', mask(p.full)),
    ),
    dueAgain: statement((p: Key & { dueAt: number }) =>
      db
        .updateTable('dispatch_chunks')
        .set({ due_at: p.dueAt, lease_owner: null, lease_expires_at: 0 })
        .where('message_id', '=', p.messageId)
        .where('first_seq', '=', p.firstSeq),
    ),
    deleteChunk: statement((p: Key) =>
      db
        .deleteFrom('dispatch_chunks')
        .where('message_id', '=', p.messageId)
        .where('first_seq', '=', p.firstSeq),
    ),
    finishMessage: statement((p: { messageId: number; nowMs: number }) =>
      db
        .updateTable('messages')
        .set((eb) => ({
          status: eb.case().when('any_accepted', '=', 1).then('sent').else('failed').end(),
          completed_at: p.nowMs,
          updated_at: p.nowMs,
        }))
        .where('id', '=', p.messageId)
        .where('status', '=', 'pending')
        .where((eb) => eb('dispatch_upto', '=', eb.ref('recipient_total')))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('dispatch_chunks')
                .select(sql.lit(1).as('one'))
                .where('dispatch_chunks.message_id', '=', p.messageId),
            ),
          ),
        )
        .returning(['id', 'account_id', 'status']),
    ),
    queueDepth: statement((_: Record<string, never>) =>
      db
        .selectFrom('messages')
        .select(sql<number | string | null>`sum(recipient_total - dispatch_upto)`.as('depth'))
        .where('status', '=', 'pending')
        .where((eb) => eb('dispatch_upto', '<', eb.ref('recipient_total'))),
    ),
  };
}

/**
 * A part mask as a statement parameter: a bigint (better-sqlite3 binds it as a 64-bit integer;
 * pg sends its decimal text), typed as the schema's number column.
 */
function mask(value: PartMask) {
  return sql<number>`${value}`;
}
