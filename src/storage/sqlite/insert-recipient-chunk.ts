import type BetterSqlite3 from 'better-sqlite3';
import type { NewRecipientRow } from '../../domain/recipients/recipient-chunk-writer.js';

/**
 * Rows per transaction. better-sqlite3 is synchronous: while a transaction runs, nothing else in
 * the process does, so an API request that arrives meanwhile waits for it. One 20,000-row
 * transaction held the event loop for 50–100 ms on a quiet 2-core machine, and every recipients
 * page asked during materialisation waited that long (bench/accept-and-page.bench.ts).
 *
 * Each slice also rewrites the message row to advance `materialised_upto`. SQLite rewrites a
 * whole row on UPDATE, which is why the compact list lives in its own table: while it was in the
 * message row (8 MB of overflow pages for 2M numbers) that UPDATE alone took ~7 ms, and
 * 1,000-row slices took 16 s for 2M rows. With a small message row a slice's fixed cost is
 * negligible, so slices stay short.
 */
const SLICE_ROWS = 2000;
/** Rows per INSERT statement: one native call per 100 rows instead of per row, 2–3× faster. */
const ROWS_PER_STATEMENT = 100;
const COLUMNS = '(message_id, seq, msisdn, status, attempts, updated_at)';

/**
 * Writes recipient rows (fromSeq, toSeq] in slices of {@link SLICE_ROWS}, each its own IMMEDIATE
 * transaction that advances `materialised_upto` from the slice's first seq to its last only if
 * it is still where this writer left it, and yields to the event loop between slices. Returns
 * false, writing nothing, when the first slice finds `materialised_upto` moved (another worker
 * got there first); if that happens at a later slice it stops there, its earlier slices kept —
 * each was whole and advanced `materialised_upto` with its rows.
 *
 * `run` executes a slice under the Kysely connection mutex, so a slice never interleaves with an
 * open Kysely transaction; between slices the mutex is free for the API's queries.
 *
 * The slices commit with `synchronous = NORMAL` (the connection is back to FULL before the mutex
 * is released): in WAL mode a power cut can then lose the last slices, never part of one, and
 * what is lost is rows derived from the durable compact list, written again by the next worker
 * because `materialised_upto` went back with them. It saves an fsync per slice.
 */
export async function insertRecipientChunkInSlices(
  raw: BetterSqlite3.Database,
  run: <T>(work: () => T) => Promise<T>,
  messageId: number,
  fromSeq: number,
  toSeq: number,
  rows: readonly NewRecipientRow[],
  nowMs: number,
): Promise<boolean> {
  const statements = prepare(raw);
  if (rows.length === 0)
    return run(() => writeSlice(raw, statements, messageId, fromSeq, toSeq, rows, 0, 0, nowMs));
  let upto = fromSeq;
  for (let start = 0; start < rows.length; start += SLICE_ROWS) {
    const end = Math.min(rows.length, start + SLICE_ROWS);
    const next = end === rows.length ? toSeq : rows[end - 1]!.seq;
    const written = await run(() =>
      writeSlice(raw, statements, messageId, upto, next, rows, start, end, nowMs),
    );
    if (!written) return start > 0;
    upto = next;
    if (end < rows.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

interface Statements {
  readonly advance: BetterSqlite3.Statement;
  readonly insertOne: BetterSqlite3.Statement;
  readonly insertMany: BetterSqlite3.Statement;
}

function prepare(raw: BetterSqlite3.Database): Statements {
  return {
    advance: raw.prepare(
      'UPDATE messages SET materialised_upto = ? WHERE id = ? AND materialised_upto = ?',
    ),
    insertOne: raw.prepare(`INSERT INTO recipients ${COLUMNS} VALUES (?, ?, ?, ?, 0, ?)`),
    insertMany: raw.prepare(
      `INSERT INTO recipients ${COLUMNS} VALUES ${Array<string>(ROWS_PER_STATEMENT).fill('(?, ?, ?, ?, 0, ?)').join(', ')}`,
    ),
  };
}

function writeSlice(
  raw: BetterSqlite3.Database,
  statements: Statements,
  messageId: number,
  fromSeq: number,
  toSeq: number,
  rows: readonly NewRecipientRow[],
  start: number,
  end: number,
  nowMs: number,
): boolean {
  raw.pragma('synchronous = NORMAL');
  try {
    return raw
      .transaction(() => {
        if (statements.advance.run(toSeq, messageId, fromSeq).changes === 0) return false;
        const values: unknown[] = new Array(ROWS_PER_STATEMENT * 5);
        let i = start;
        for (; i + ROWS_PER_STATEMENT <= end; i += ROWS_PER_STATEMENT) {
          for (let k = 0; k < ROWS_PER_STATEMENT; k++) {
            const row = rows[i + k]!;
            values[k * 5] = messageId;
            values[k * 5 + 1] = row.seq;
            values[k * 5 + 2] = row.msisdn;
            values[k * 5 + 3] = row.status;
            values[k * 5 + 4] = nowMs;
          }
          statements.insertMany.run(values);
        }
        for (; i < end; i++) {
          const row = rows[i]!;
          statements.insertOne.run(messageId, row.seq, row.msisdn, row.status, nowMs);
        }
        return true;
      })
      .immediate();
  } finally {
    raw.pragma('synchronous = FULL');
  }
}
