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
  /**
   * Copies the database, consistent as of one moment, to a new file at `destination` while
   * others go on reading and writing it (`nok backup`). SQLite only: PostgreSQL has pg_dump and
   * its own backups, and refuses with an ExplainedError that says so.
   */
  backup(destination: string): Promise<void>;
}

export interface Database {
  readonly db: Kysely<Tables>;
  readonly engine: EngineOps;
  /** Delivery's hot path: engine twins over the driver, not Kysely (delivery-store.ts). */
  readonly delivery: DeliveryStore;
  /** Wake-ups between processes (docs/adr/0052). */
  readonly wakes: Wakes;
  close(): Promise<void>;
}

/** Work one process leaves for a role another process may run. */
export type WakeTopic = 'materialise' | 'dispatch';

/**
 * Wake-ups between processes on one database (docs/adr/0052): on PostgreSQL a NOTIFY, heard by
 * the processes that LISTEN; on SQLite nothing (its roles share one process, which wakes them
 * directly). A wake-up is a hint: whoever hears one looks for work as its poll would, and the
 * poll stays, so a wake-up lost costs only time.
 */
export interface Wakes {
  /** Tells the processes listening for `topic` that there is work; after its commit. */
  notify(topic: WakeTopic): void;
  /**
   * Calls `onWake` whenever another process notifies one of `topics`, and for each of them
   * whenever listening starts again after a broken connection (what was notified meanwhile is
   * not known). Once per process.
   */
  listen(topics: readonly WakeTopic[], onWake: (topic: WakeTopic) => void): void;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL: a schema to use instead of the connection's default search_path. */
  readonly schema?: string;
  /** PostgreSQL: pool size (default 10). */
  readonly maxConnections?: number;
  /** PostgreSQL: told when an idle pooled connection breaks; the pool replaces it. */
  readonly onIdleConnectionError?: (error: Error) => void;
  /** PostgreSQL: where to LISTEN (NOK_DATABASE_DIRECT_URL); the pool's URL when unset. */
  readonly directUrl?: string;
  /** PostgreSQL: told when wake-ups fail to be sent or heard; polling still finds the work. */
  readonly onWakeError?: (error: Error) => void;
}
