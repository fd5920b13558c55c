import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database, EngineOps, NewRecipientRow } from '../engine.js';
import type { Tables } from '../schema.js';
import { sqliteMigrations } from './migrations.js';

const BOOKKEEPING =
  'CREATE TABLE IF NOT EXISTS nok_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)';

/**
 * Opens the embedded store. One connection per process: better-sqlite3 is synchronous, so
 * Kysely's connection mutex is what serialises transactions, and raw bulk work below takes that
 * same mutex (`db.connection()`) so it can never interleave with an open Kysely transaction.
 */
export function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: raw }) });

  const withConnection = <T>(fn: () => T): Promise<T> => db.connection().execute(async () => fn());

  const engine: EngineOps = {
    name: 'sqlite',
    migrations: sqliteMigrations,
    // BEGIN IMMEDIATE takes the file's write lock, so migrators in other processes wait.
    applyMigration: (migration, nowMs) =>
      withConnection(() => {
        raw.exec('BEGIN IMMEDIATE');
        try {
          raw.exec(BOOKKEEPING);
          const done = raw.prepare('SELECT 1 FROM nok_migrations WHERE id = ?').get(migration.id);
          if (!done) {
            raw.exec(migration.sql);
            raw
              .prepare('INSERT INTO nok_migrations (id, name, applied_at) VALUES (?, ?, ?)')
              .run(migration.id, migration.name, nowMs);
          }
          raw.exec('COMMIT');
          return !done;
        } catch (error) {
          raw.exec('ROLLBACK');
          throw error;
        }
      }),
    appliedMigrations: () =>
      withConnection(() => {
        raw.exec(BOOKKEEPING);
        const rows = raw.prepare('SELECT id FROM nok_migrations ORDER BY id').all() as { id: number }[];
        return rows.map((row) => row.id);
      }),
    insertRecipientChunk: (messageId, fromSeq, toSeq, rows, nowMs) =>
      withConnection(() => insertChunk(raw, messageId, fromSeq, toSeq, rows, nowMs)),
  };

  return { db, engine, close: () => db.destroy() };
}

function insertChunk(
  raw: BetterSqlite3.Database,
  messageId: number,
  fromSeq: number,
  toSeq: number,
  rows: readonly NewRecipientRow[],
  nowMs: number,
): boolean {
  const advance = raw.prepare(
    'UPDATE messages SET materialised_upto = ? WHERE id = ? AND materialised_upto = ?',
  );
  const insert = raw.prepare(
    'INSERT INTO recipients (message_id, seq, msisdn, status, attempts, updated_at) VALUES (?, ?, ?, ?, 0, ?)',
  );
  return raw.transaction(() => {
    if (advance.run(toSeq, messageId, fromSeq).changes === 0) return false;
    for (const row of rows) insert.run(messageId, row.seq, row.msisdn, row.status, nowMs);
    return true;
  }).immediate();
}
