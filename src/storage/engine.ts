import type { Kysely } from 'kysely';
import type { DeliveryStore } from '../domain/delivery/delivery-store.js';
import type { Migration } from './migration.js';
import type { Row, Tables } from './schema.js';

/** A recipient row as the materialiser writes it. */
export type NewRecipientRow = Readonly<Pick<Row<'recipients'>, 'seq' | 'msisdn' | 'status'>>;

/**
 * The few operations whose SQL or driver use differs by engine. Each has a twin in
 * `storage/sqlite/` and `storage/postgres/` behind this one signature; nothing else branches
 * on the engine.
 */
export interface EngineOps {
  readonly name: 'sqlite' | 'postgres';
  readonly migrations: readonly Migration[];
  /**
   * Applies one migration and records it, in one transaction serialised against migrators in
   * other processes; returns false when it had already been applied.
   */
  applyMigration(migration: Migration, nowMs: number): Promise<boolean>;
  /** Ids of the migrations recorded as applied. */
  appliedMigrations(): Promise<number[]>;
  /**
   * Writes recipient rows `(fromSeq, toSeq]` of a message and advances its `materialised_upto`
   * from `fromSeq` to `toSeq`, in one transaction — on SQLite in slices, each its own
   * transaction advancing `materialised_upto` with its rows, so the event loop is never held for
   * long. Returns false, writing nothing, when `materialised_upto` was no longer `fromSeq`
   * (another worker got there first).
   */
  insertRecipientChunk(
    messageId: number,
    fromSeq: number,
    toSeq: number,
    rows: readonly NewRecipientRow[],
    nowMs: number,
  ): Promise<boolean>;
}

export interface Database {
  readonly db: Kysely<Tables>;
  readonly engine: EngineOps;
  /** Delivery's hot path: engine twins over the driver, not Kysely (delivery-store.ts). */
  readonly delivery: DeliveryStore;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL: a schema to use instead of the connection's default search_path. */
  readonly schema?: string;
  /** PostgreSQL: pool size (default 10). */
  readonly maxConnections?: number;
  /** PostgreSQL: told when an idle pooled connection breaks; the pool replaces it. */
  readonly onIdleConnectionError?: (error: Error) => void;
}
