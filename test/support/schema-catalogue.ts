// What a migrated database holds, read from the engine's own catalogue and written in one
// portable form, so that what the migrations make on SQLite and on PostgreSQL can be compared field by
// field: tables, columns (type, NOT NULL, default), primary keys, indexes (columns, uniqueness,
// partial predicate), foreign keys and triggers.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/storage/engine.js';

export interface Column {
  readonly type: PortableType;
  readonly notNull: boolean;
  /** The default as written, casts and outer parentheses removed; null without one. */
  readonly default: string | null;
}

export interface Index {
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** The partial index's predicate, normalised (normalisePredicate); null for a full index. */
  readonly where: string | null;
}

export interface Table {
  readonly columns: Readonly<Record<string, Column>>;
  readonly primaryKey: readonly string[];
  /**
   * By name for indexes made by CREATE INDEX; by `unique(col, …)` for those behind a UNIQUE
   * constraint, whose names each engine makes up (sqlite_autoindex_…, …_key).
   */
  readonly indexes: Readonly<Record<string, Index>>;
  /** `column -> table(column)`, sorted. */
  readonly foreignKeys: readonly string[];
  /** `name: before update` (its timing and event, lower case), sorted. */
  readonly triggers: readonly string[];
}

export type Catalogue = Readonly<Record<string, Table>>;

export type PortableType = 'integer' | 'text' | 'bytes';

/**
 * Key columns that SQLite lets hold NULL where PostgreSQL does not: the lone TEXT key of a
 * rowid table, declared without NOT NULL (an old SQLite quirk kept for compatibility). Migrations
 * 4, 7 and 9 made these three; no code writes NULL there, the Kysely types forbid it. A new
 * table is keyed by an identity or by its `primaryKey` (WITHOUT ROWID refuses NULL), so this
 * list never grows (ADR 0037); a migration that rebuilds these tables empties it.
 */
export const SQLITE_NULLABLE_KEYS: readonly string[] = [
  'dispatcher_statuses.owner',
  'sessions.id_hash',
  'sign_in_throttles.scope',
];

/** Key columns that take NULL, as `table.column`, sorted. */
export function nullableKeys(catalogue: Catalogue): string[] {
  return Object.entries(catalogue)
    .flatMap(([name, table]) =>
      table.primaryKey
        .filter((column) => !table.columns[column]!.notNull)
        .map((column) => `${name}.${column}`),
    )
    .sort();
}

/** The catalogue with every key column NOT NULL, as the migrations declare them. */
export function withKeysNotNull(catalogue: Catalogue): Catalogue {
  return Object.fromEntries(
    Object.entries(catalogue).map(([name, table]) => [
      name,
      {
        ...table,
        columns: Object.fromEntries(
          Object.entries(table.columns).map(([column, c]) => [
            column,
            table.primaryKey.includes(column) ? { ...c, notNull: true } : c,
          ]),
        ),
      },
    ]),
  );
}

/** A trigger as `name: timing event`, from the CREATE TRIGGER text either engine gives back. */
function describeTrigger(name: string, definition: string): string {
  const when = /\b(BEFORE|AFTER|INSTEAD OF)\s+(INSERT|UPDATE|DELETE)\b/i.exec(definition);
  if (!when) throw new Error(`trigger ${name}: no timing and event in ${definition}`);
  return `${name}: ${when[1]!.toLowerCase()} ${when[2]!.toLowerCase()}`;
}

/**
 * The one mapping of column types: each engine's declared type to the portable type it stands
 * for. A type missing here fails the reading, so a new type is mapped before it is compared.
 */
export const PORTABLE_TYPES: Readonly<Record<'sqlite' | 'postgres', Record<string, PortableType>>> =
  {
    sqlite: { INTEGER: 'integer', TEXT: 'text', BLOB: 'bytes' },
    postgres: { bigint: 'integer', text: 'text', bytea: 'bytes' },
  };

export function readCatalogue(database: Database): Promise<Catalogue> {
  return database.engine.name === 'sqlite'
    ? readSqlite(database.db as Kysely<unknown>)
    : readPostgres(database.db as Kysely<unknown>);
}

/**
 * A predicate or default as both engines may print it alike: lower case, PostgreSQL's casts
 * (`'pending'::text`) and every parenthesis removed, spaces collapsed. Parentheses carry no
 * meaning in the predicates Nok writes (comparisons joined by AND).
 */
export function normalisePredicate(text: string): string {
  return text
    .replace(/::[a-z ]+/gi, '')
    .replace(/[()]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function portable(engine: 'sqlite' | 'postgres', table: string, column: string, type: string) {
  const mapped = PORTABLE_TYPES[engine][type];
  if (!mapped) {
    throw new Error(`${engine} ${table}.${column}: type ${type} has no portable type; map it`);
  }
  return mapped;
}

async function rows<T>(db: Kysely<unknown>, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

async function readSqlite(db: Kysely<unknown>): Promise<Catalogue> {
  const tables = await rows<{ name: string }>(
    db,
    sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
  );
  const catalogue: Record<string, Table> = {};
  for (const { name: table } of tables) {
    const info = await rows<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }>(db, sql`SELECT * FROM pragma_table_info(${table})`);
    const [listed] = await rows<{ wr: number }>(
      db,
      sql`SELECT wr FROM pragma_table_list(${table})`,
    );
    const withoutRowid = listed!.wr === 1;
    const keyColumns = info.filter((c) => c.pk > 0).length;
    const columns: Record<string, Column> = {};
    for (const c of info) {
      // A key column refuses NULL in a WITHOUT ROWID table, and as the rowid's alias (a lone
      // INTEGER key); any other key column of SQLite's takes NULL unless declared NOT NULL.
      const rowidAlias = keyColumns === 1 && c.type === 'INTEGER';
      columns[c.name] = {
        type: portable('sqlite', table, c.name, c.type),
        notNull: c.notnull === 1 || (c.pk > 0 && (withoutRowid || rowidAlias)),
        default: c.dflt_value === null ? null : normalisePredicate(c.dflt_value),
      };
    }
    const primaryKey = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);

    const indexes: Record<string, Index> = {};
    const list = await rows<{ name: string; unique: number; origin: string; partial: number }>(
      db,
      sql`SELECT * FROM pragma_index_list(${table})`,
    );
    for (const index of list) {
      if (index.origin === 'pk') continue;
      const columnsOf = await rows<{ seqno: number; name: string }>(
        db,
        sql`SELECT * FROM pragma_index_info(${index.name})`,
      );
      const names = columnsOf.sort((a, b) => a.seqno - b.seqno).map((c) => c.name);
      let where: string | null = null;
      if (index.partial === 1) {
        const [definition] = await rows<{ sql: string }>(
          db,
          sql`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ${index.name}`,
        );
        where = normalisePredicate(/\bWHERE\b([\s\S]*)$/i.exec(definition!.sql)![1]!);
      }
      const key = index.origin === 'u' ? `unique(${names.join(', ')})` : index.name;
      indexes[key] = { columns: names, unique: index.unique === 1, where };
    }

    const foreign = await rows<{ table: string; from: string; to: string }>(
      db,
      sql`SELECT * FROM pragma_foreign_key_list(${table})`,
    );
    const triggers = await rows<{ name: string; sql: string }>(
      db,
      sql`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${table}`,
    );
    catalogue[table] = {
      columns,
      primaryKey,
      indexes,
      foreignKeys: foreign.map((f) => `${f.from} -> ${f.table}(${f.to})`).sort(),
      triggers: triggers.map((t) => describeTrigger(t.name, t.sql)).sort(),
    };
  }
  return catalogue;
}

async function readPostgres(db: Kysely<unknown>): Promise<Catalogue> {
  const tables = await rows<{ name: string }>(
    db,
    sql`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const catalogue: Record<string, Table> = {};
  for (const { name: table } of tables) {
    const info = await rows<{
      name: string;
      type: string;
      nullable: string;
      default: string | null;
    }>(
      db,
      sql`SELECT column_name AS name, data_type AS type, is_nullable AS nullable,
                 column_default AS default
          FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ${table}
          ORDER BY ordinal_position`,
    );
    const columns: Record<string, Column> = {};
    for (const c of info) {
      columns[c.name] = {
        type: portable('postgres', table, c.name, c.type),
        notNull: c.nullable === 'NO',
        default: c.default === null ? null : normalisePredicate(c.default),
      };
    }

    // Every index of the table with its columns in key order, whether it is the primary key,
    // and whether a UNIQUE constraint stands behind it.
    const list = await rows<{
      name: string;
      columns: string[];
      unique: boolean;
      primary: boolean;
      constraint: boolean;
      where: string | null;
    }>(
      db,
      sql`SELECT i.relname AS name,
                 array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
                       JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                       ORDER BY k.n) AS columns,
                 x.indisunique AS unique, x.indisprimary AS primary,
                 EXISTS (SELECT 1 FROM pg_constraint c
                         WHERE c.conindid = x.indexrelid AND c.contype = 'u') AS constraint,
                 pg_get_expr(x.indpred, x.indrelid) AS where
          FROM pg_index x
          JOIN pg_class i ON i.oid = x.indexrelid
          JOIN pg_class t ON t.oid = x.indrelid
          WHERE t.relname = ${table} AND t.relnamespace = current_schema()::regnamespace`,
    );
    const primaryKey = list.find((index) => index.primary)?.columns ?? [];
    const indexes: Record<string, Index> = {};
    for (const index of list) {
      if (index.primary) continue;
      const key = index.constraint ? `unique(${index.columns.join(', ')})` : index.name;
      indexes[key] = {
        columns: index.columns,
        unique: index.unique,
        where: index.where === null ? null : normalisePredicate(index.where),
      };
    }

    const foreign = await rows<{ from: string; table: string; to: string }>(
      db,
      sql`SELECT a.attname AS from, r.relname AS table, b.attname AS to
          FROM pg_constraint c
          CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(fk, pk)
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.fk
          JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = k.pk
          JOIN pg_class r ON r.oid = c.confrelid
          WHERE c.contype = 'f' AND c.conrelid = (current_schema() || '.' || ${table})::regclass`,
    );
    const triggers = await rows<{ name: string; definition: string }>(
      db,
      sql`SELECT tgname AS name, pg_get_triggerdef(oid) AS definition FROM pg_trigger
          WHERE NOT tgisinternal AND tgrelid = (current_schema() || '.' || ${table})::regclass`,
    );
    catalogue[table] = {
      columns,
      primaryKey,
      indexes,
      foreignKeys: foreign.map((f) => `${f.from} -> ${f.table}(${f.to})`).sort(),
      triggers: triggers.map((t) => describeTrigger(t.name, t.definition)).sort(),
    };
  }
  return catalogue;
}
