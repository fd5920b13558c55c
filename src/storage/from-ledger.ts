import type { Kysely } from 'kysely';
import type { Db, ReadOnlyCreditLedgerTable, Tables } from './schema.js';

/** The tables as a reader of the ledger sees them. */
export type LedgerReadTables = Tables & { credit_ledger: ReadOnlyCreditLedgerTable };

/**
 * A select query over `credit_ledger`, to read it (joins included). It hands out a query rather
 * than a handle typed with the ledger because any handle that can select a table can also insert
 * into it and delete from it, and the ledger has one writer, `changeBalance` (ADR 0031).
 */
export function fromLedger(db: Db) {
  return (db as unknown as Kysely<LedgerReadTables>).selectFrom('credit_ledger');
}
