import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect.js';
import type { Database, EngineOps, Wakes } from '../engine.js';
import { sqliteDeliveryStore } from './delivery-store.js';
import { insertRecipientChunkInSlices } from './insert-recipient-chunk.js';
import type { Row, Tables } from '../schema.js';
import { bookkeepingSql, migrationsFor } from '../migrations/migrations.js';

const BOOKKEEPING = bookkeepingSql('sqlite');

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
  // The built-in lower() folds ASCII only; PostgreSQL's and JavaScript's fold every script.
  // Replacing it keeps case-insensitive search (`lower(x) LIKE …`) alike on both engines.
  raw.function('lower', { deterministic: true }, (value: unknown) =>
    value === null ? null : String(value).toLowerCase(),
  );
  const db = new Kysely<Tables>({
    dialect: new ImmediateSqliteDialect({
      database: withStatementCache(raw),
      inTransaction: () => raw.inTransaction,
    }),
  });

  const withConnection = <T>(fn: () => T): Promise<T> => db.connection().execute(async () => fn());

  const engine: EngineOps = {
    name: 'sqlite',
    migrations: migrationsFor('sqlite'),
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
          // SQLite may have rolled back already (disk full): ROLLBACK would hide the cause.
          if (raw.inTransaction) raw.exec('ROLLBACK');
          throw error;
        }
      }),
    appliedMigrations: () =>
      withConnection(() => {
        raw.exec(BOOKKEEPING);
        const ids = raw.prepare<[], Pick<Row<'nok_migrations'>, 'id'>>(
          'SELECT id FROM nok_migrations ORDER BY id',
        );
        return ids.all().map((row) => row.id);
      }),
    insertRecipientChunk: (messageId, fromSeq, toSeq, rows, nowMs) =>
      insertRecipientChunkInSlices(raw, withConnection, messageId, fromSeq, toSeq, rows, nowMs),
    // VACUUM INTO reads one snapshot (a WAL read transaction): writers go on meanwhile, nothing
    // is restarted as with the page-by-page backup API, and the copy is compact and complete,
    // a database file of its own with no WAL beside it.
    backup: (destination) =>
      withConnection(() => void raw.prepare('VACUUM INTO ?').run(destination)),
  };

  const delivery = sqliteDeliveryStore(raw, db, withConnection);
  // One process serves every role on one SQLite file: it wakes them itself.
  const wakes: Wakes = { notify: () => undefined, listen: () => undefined };
  return { db, engine, delivery, wakes, close: () => db.destroy() };
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every statement on every call, and for Nok's short lookups
 * preparing costs about as much as running (10% of the server's CPU under GET /sms/{uuid} load,
 * bench/accept-and-page.bench.ts). A finished statement can be run again, so keep the recent
 * ones by SQL text; Kysely binds values as parameters, so the texts repeat. A statement still
 * busy (an open iterator) is never handed out twice: a fresh one is prepared instead.
 */
function withStatementCache(raw: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = raw.prepare(sql);
      if (!cached) {
        statements.set(sql, statement);
        if (statements.size > STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
  };
}
