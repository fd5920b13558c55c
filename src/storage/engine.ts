import type { Kysely } from 'kysely';
import type { DeliveryStore } from '../domain/delivery/delivery-store.js';
import type { RecipientChunkWriter } from '../domain/recipients/recipient-chunk-writer.js';
import type { Migration } from './migration.js';
import type { Tables } from './schema.js';

/**
 * The few operations whose SQL or driver use differs by engine (inserting a chunk of recipient
 * rows among them). Each has a twin in
 * `storage/sqlite/` and `storage/postgres/` behind this one signature; nothing else branches
 * on the engine.
 */
export interface EngineOps extends RecipientChunkWriter {
  readonly name: 'sqlite' | 'postgres';
  readonly migrations: readonly Migration[];
  /**
   * Applies one migration and records it, in one transaction serialised against migrators in
   * other processes; returns false when it had already been applied.
   */
  applyMigration(migration: Migration, nowMs: number): Promise<boolean>;
  /** Ids of the migrations recorded as applied. */
  appliedMigrations(): Promise<number[]>;
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
