import type { ColumnType, Generated, Kysely, Selectable, Transaction } from 'kysely';
import type { bookkeeping, migrations } from './migrations/migrations.js';
import type { TablesAfter } from './migrations/tables-after.js';
import type { Column, PortableType } from './migrations/vocabulary.js';

/** What each portable type is in JavaScript, as both drivers hand it over (ADR 0002). */
interface Values extends Record<PortableType, unknown> {
  integer: number;
  text: string;
  bytes: Buffer;
}

/** A table's columns as Kysely types: one the database fills is optional on insert. */
type KyselyTable<Columns> = {
  -readonly [K in keyof Columns]: Columns[K] extends Column<
    infer Type,
    infer Nullable,
    infer Filled
  >
    ? Filled extends true
      ? Generated<Values[Type] | (Nullable extends true ? null : never)>
      : Values[Type] | (Nullable extends true ? null : never)
    : never;
};

/** Every table the migrations leave, and their bookkeeping, read from the migrations themselves. */
type MigratedTables = {
  [T in keyof Migrated]: KyselyTable<Migrated[T]>;
};
type Migrated = TablesAfter<typeof migrations> & {
  readonly nok_migrations: (typeof bookkeeping)['columns'];
};

/**
 * Table types for Kysely, derived from the migrations (ADR 0037): a column added by a migration
 * is here once it is written there. Timestamps are integer milliseconds since the epoch on both
 * engines.
 *
 * Money is written by `change-balance.ts` alone (ADR 0031): `accounts.balance` can be read but
 * neither inserted nor updated through these types, and `credit_ledger` is not one of them, so
 * no handle typed with them can insert, update or delete a ledger row. Reads of the ledger go
 * through `fromLedger`.
 */
export type Tables = {
  [T in Exclude<keyof MigratedTables, 'credit_ledger'>]: T extends 'accounts'
    ? {
        [C in keyof MigratedTables[T]]: C extends 'balance'
          ? ColumnType<number, never, never>
          : MigratedTables[T][C];
      }
    : MigratedTables[T];
};

/** The columns of `credit_ledger`, as read. */
export type CreditLedgerColumns = Selectable<MigratedTables['credit_ledger']>;

/** `credit_ledger` as readers see it: every column selectable, none insertable or updatable. */
export type ReadOnlyCreditLedgerTable = {
  [K in keyof CreditLedgerColumns]: ColumnType<CreditLedgerColumns[K], never, never>;
};

export type Db = Kysely<Tables> | Transaction<Tables>;

/** A row of `table` as a select of all its columns returns it. */
export type Row<T extends keyof Tables> = Selectable<Tables[T]>;

export type AccountRow = Row<'accounts'>;
export type ApiKeyRow = Row<'api_keys'>;
export type SenderRow = Row<'senders'>;
export type MessageRow = Row<'messages'>;
export type SubmissionRow = Row<'submissions'>;
export type OrphanRow = Row<'orphan_receipts'>;
export type SenderRequestRow = Row<'sender_requests'>;
export type SenderRequestEventRow = Row<'sender_request_events'>;
export type SenderDocumentRow = Row<'sender_documents'>;
export type UserRow = Row<'users'>;
export type InvitationRow = Row<'invitations'>;
export type PasswordResetRow = Row<'password_resets'>;
