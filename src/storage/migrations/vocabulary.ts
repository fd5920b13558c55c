/**
 * The words every migration is written in, once for both engines (ADR 0037): a few column types
 * that mean the same on SQLite and PostgreSQL, and the steps a migration takes. How each word is
 * spelt on each engine is `render-migration.ts`'s alone; what the steps leave behind, as tables
 * and as Kysely types, is `tables-after.ts`'s.
 */

/** What a column holds, alike on both engines. */
export type PortableType = 'integer' | 'text' | 'bytes';

export interface Column<
  Type extends PortableType = PortableType,
  Nullable extends boolean = boolean,
  Generated extends boolean = boolean,
> {
  readonly type: Type;
  readonly nullable: Nullable;
  /** The database fills it when an insert leaves it out: an identity, or a DEFAULT. */
  readonly generated: Generated;
  /** The table's own key, numbered by the database. */
  readonly identity: boolean;
  /** The table's key on its own (a key of several columns is the table's `primaryKey`). */
  readonly primaryKey: boolean;
  readonly unique: boolean;
  readonly default: number | string | null;
  /** A CHECK on this column alone, as SQL both engines read alike. */
  readonly check: string | null;
  /** The table whose `id` this column holds (a foreign key). */
  readonly references: string | null;
}

export interface ColumnOptions {
  readonly nullable?: boolean;
  readonly default?: number | string;
  readonly unique?: boolean;
  readonly check?: string;
  /**
   * The table's key on its own. SQLite lets a lone key column that is not an INTEGER take NULL
   * (the landed `sessions.id_hash`, `sign_in_throttles.scope`, `dispatcher_statuses.owner`): a
   * new table is keyed by `identity()`, a `reference(…)`, or the table's `primaryKey` option.
   */
  readonly primaryKey?: boolean;
}

type NullableOf<O> = O extends { readonly nullable: true } ? true : false;
type GeneratedOf<O> = O extends { readonly default: number | string } ? true : false;

function column<Type extends PortableType, O extends ColumnOptions>(
  type: Type,
  options: O,
  references: string | null = null,
): Column<Type, NullableOf<O>, GeneratedOf<O>> {
  return {
    type,
    nullable: (options.nullable ?? false) as NullableOf<O>,
    generated: (options.default !== undefined) as GeneratedOf<O>,
    identity: false,
    primaryKey: options.primaryKey ?? false,
    unique: options.unique ?? false,
    default: options.default ?? null,
    check: options.check ?? null,
    references,
  };
}

/** A whole number, 64-bit on both engines: counts, money in credits, flags 0/1. */
export function integer<const O extends ColumnOptions = object>(options = {} as O) {
  return column('integer', options);
}

/** A moment, as integer milliseconds since the epoch (UTC) on both engines. */
export const timestamp = integer;

export function text<const O extends ColumnOptions = object>(options = {} as O) {
  return column('text', options);
}

export function bytes<const O extends ColumnOptions = object>(options = {} as O) {
  return column('bytes', options);
}

/** The `id` of a row of `table`, as a foreign key. */
export function reference<const O extends ColumnOptions = object>(
  table: string,
  options = {} as O,
) {
  return column('integer', options, table);
}

/** The table's key: an integer the database numbers when an insert leaves it out. */
export function identity(): Column<'integer', false, true> {
  return { ...column('integer', {}), generated: true, identity: true, primaryKey: true };
}

export type Columns = Readonly<Record<string, Column>>;

export interface CreateTable<Name extends string = string, C extends Columns = Columns> {
  readonly step: 'create table';
  readonly name: Name;
  readonly columns: C;
  /** A key of several columns; on SQLite the table is then stored in key order (WITHOUT ROWID). */
  readonly primaryKey: readonly string[] | null;
  /** UNIQUE constraints over several columns. */
  readonly unique: readonly (readonly string[])[];
  /** Created only where it does not exist yet (the migrations' own bookkeeping). */
  readonly ifNotExists: boolean;
}

export interface AddColumn<
  Table extends string = string,
  Name extends string = string,
  C extends Column = Column,
> {
  readonly step: 'add column';
  readonly table: Table;
  readonly name: Name;
  readonly column: C;
}

export interface DropTable<Name extends string = string> {
  readonly step: 'drop table';
  readonly name: Name;
}

export interface CreateIndex {
  readonly step: 'create index';
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** A partial index's predicate, as SQL both engines read alike. */
  readonly where: string | null;
}

/**
 * SQL the engines need spelt each their own way (triggers, a pattern match): what it changes
 * is not a column, so it leaves the tables as they were.
 */
export interface EngineSql {
  readonly step: 'engine sql';
  readonly sqlite: string;
  readonly postgres: string;
}

export type Step = CreateTable | AddColumn | DropTable | CreateIndex | EngineSql;

export interface TableOptions {
  readonly primaryKey?: readonly string[];
  readonly unique?: readonly (readonly string[])[];
  readonly ifNotExists?: boolean;
}

export function createTable<const Name extends string, const C extends Columns>(
  name: Name,
  columns: C,
  options: TableOptions = {},
): CreateTable<Name, C> {
  return {
    step: 'create table',
    name,
    columns,
    primaryKey: options.primaryKey ?? null,
    unique: options.unique ?? [],
    ifNotExists: options.ifNotExists ?? false,
  };
}

export function addColumn<
  const Table extends string,
  const Name extends string,
  const C extends Column,
>(table: Table, name: Name, column: C): AddColumn<Table, Name, C> {
  return { step: 'add column', table, name, column };
}

export function dropTable<const Name extends string>(name: Name): DropTable<Name> {
  return { step: 'drop table', name };
}

export function createIndex(
  name: string,
  table: string,
  columns: readonly string[],
  options: { readonly unique?: boolean; readonly where?: string } = {},
): CreateIndex {
  return {
    step: 'create index',
    name,
    table,
    columns,
    unique: options.unique ?? false,
    where: options.where ?? null,
  };
}

export function engineSql(sql: { readonly sqlite: string; readonly postgres: string }): EngineSql {
  return { step: 'engine sql', ...sql };
}

/** One forward-only schema step, numbered; never edited once landed. */
export interface MigrationDefinition<Steps extends readonly Step[] = readonly Step[]> {
  readonly id: number;
  readonly name: string;
  readonly steps: Steps;
}

export function migration<const Steps extends readonly Step[]>(
  id: number,
  name: string,
  steps: Steps,
): MigrationDefinition<Steps> {
  return { id, name, steps };
}
