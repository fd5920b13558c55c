import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { NewRecipientRow } from '../../domain/recipients/recipient-chunk-writer.js';
import type { Database, EngineOps, OpenDatabaseOptions } from '../engine.js';
import type { MessageRow, Row, Tables } from '../schema.js';
import { postgresDeliveryStore } from './delivery-store.js';
import { postgresWakes } from './wakes.js';
import { ExplainedError } from '../../domain/explained-error.js';
import { bookkeepingSql, migrationsFor } from '../migrations/migrations.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Counts and ids are BIGINT; every value Nok stores fits a double, so parse them as numbers
// rather than the driver's default strings. Scoped to this pool, not pg's global parsers.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Migrators in several processes serialise on this advisory lock key. */
const MIGRATION_LOCK_KEY = 727_001;
const BOOKKEEPING = bookkeepingSql('postgres');

export function openPostgres(url: string, options: OpenDatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    types,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle connection can break (a server restart); the pool drops it and the next query
  // connects anew. Without a listener, that 'error' event would end the process.
  pool.on('error', (error) => options.onIdleConnectionError?.(error));
  // A connection checked out of the pool (a transaction between two statements) that breaks
  // emits 'error' on its client, where the pool listens only while it is idle: each client
  // gets a listener of its own for its whole life. The work using it fails with the broken
  // connection's error on its next statement, and the pool discards it on release.
  pool.on('connect', (client) => client.on('error', ignoreBrokenConnection));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });

  const engine: EngineOps = {
    name: 'postgres',
    migrations: migrationsFor('postgres'),
    async applyMigration(migration, nowMs) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
        await client.query(BOOKKEEPING);
        const done = await client.query('SELECT 1 FROM nok_migrations WHERE id = $1', [
          migration.id,
        ]);
        if (done.rowCount === 0) {
          await client.query(migration.sql);
          await client.query(
            'INSERT INTO nok_migrations (id, name, applied_at) VALUES ($1, $2, $3)',
            [migration.id, migration.name, nowMs],
          );
        }
        await client.query('COMMIT');
        return done.rowCount === 0;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async appliedMigrations() {
      const exists = await pool.query("SELECT to_regclass('nok_migrations') AS t");
      if (!exists.rows[0]?.t) return [];
      const rows = await pool.query<Pick<Row<'nok_migrations'>, 'id'>>(
        'SELECT id FROM nok_migrations ORDER BY id',
      );
      return rows.rows.map((row) => row.id);
    },
    insertRecipientChunk: (messageId, fromSeq, toSeq, rows, nowMs) =>
      insertChunk(pool, messageId, fromSeq, toSeq, rows, nowMs),
    backup() {
      return Promise.reject(
        new ExplainedError(
          'nok backup copies a SQLite database; back PostgreSQL up with its own tools: pg_dump, or base backups with WAL archiving',
        ),
      );
    },
  };

  // Kysely ends the pool only if a query went through it; work that used the pool alone (`nok
  // migrate`) would otherwise leave its idle connections to hold the process up for
  // idleTimeoutMillis.
  const wakes = postgresWakes(pool, { connectionString: options.directUrl ?? url }, (error) =>
    options.onWakeError?.(error),
  );
  const close = async () => {
    await wakes.close();
    await db.destroy();
    if (!pool.ended) await pool.end();
  };
  return { db, engine, delivery: postgresDeliveryStore(pool, db), wakes, close };
}

/** The client's own statements report the broken connection; this only keeps the process up. */
function ignoreBrokenConnection(): void {}

/** Materialisers of one message take turns on this advisory lock (classid, message id). */
const MATERIALISE_LOCK_CLASS = 727_002;

/**
 * Materialisers of one message take turns on an advisory lock, check `materialised_upto`, COPY
 * the rows, and only then advance `materialised_upto`: the message row is locked for that last
 * statement alone, not for the whole COPY, so dispatchers carving chunks from the same message
 * (an UPDATE of its row) are not held up while its recipients are written.
 */
async function insertChunk(
  pool: pg.Pool,
  messageId: number,
  fromSeq: number,
  toSeq: number,
  rows: readonly NewRecipientRow[],
  nowMs: number,
): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [
      MATERIALISE_LOCK_CLASS,
      messageId % 2 ** 31,
    ]);
    const current = await client.query<Pick<MessageRow, 'materialised_upto'>>(
      'SELECT materialised_upto FROM messages WHERE id = $1',
      [messageId],
    );
    if (current.rows[0]?.materialised_upto !== fromSeq) {
      await client.query('ROLLBACK');
      return false;
    }
    const copy = client.query(
      copyFrom(
        'COPY recipients (message_id, seq, msisdn, status, attempts, updated_at) FROM STDIN',
      ),
    );
    await pipeline(Readable.from(copyLines(messageId, rows, nowMs)), copy);
    await client.query('UPDATE messages SET materialised_upto = $1 WHERE id = $2', [
      toSeq,
      messageId,
    ]);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

// Batches rows into large strings; msisdn and status never contain tabs, newlines or backslashes
// (invalid numbers are escaped below).
function* copyLines(messageId: number, rows: readonly NewRecipientRow[], nowMs: number) {
  const batchSize = 2000;
  for (let start = 0; start < rows.length; start += batchSize) {
    let text = '';
    const end = Math.min(rows.length, start + batchSize);
    for (let i = start; i < end; i++) {
      const row = rows[i]!;
      text += `${messageId}\t${row.seq}\t${escapeCopy(row.msisdn)}\t${row.status}\t0\t${nowMs}\n`;
    }
    yield text;
  }
}

function escapeCopy(value: string): string {
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : value;
}
