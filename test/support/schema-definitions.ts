// Everything a migrated database's schema is, in each engine's own words, to compare two
// databases of one engine to the letter (schema-catalogue.ts compares the engines with each
// other, in portable words). SQLite keeps each CREATE statement's text; PostgreSQL is asked for
// its columns, constraints (CHECKs included), indexes, triggers, functions and sequences, with the
// test's own schema name taken out.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/storage/engine.js';

export async function readDefinitions(database: Database): Promise<string[]> {
  const db = database.db as Kysely<unknown>;
  const lines = (query: ReturnType<typeof sql<{ line: string }>>) =>
    query.execute(db).then((result) => result.rows.map((row) => row.line));
  if (database.engine.name === 'sqlite') {
    return lines(sql`SELECT type || ' ' || name || ' on ' || tbl_name || ': ' || coalesce(sql, '') AS line
                     FROM sqlite_master ORDER BY type, name`);
  }
  const [{ schema }] = (
    await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)
  ).rows as [{ schema: string }];
  const found = [
    ...(await lines(sql`
      SELECT format('column %s.%s #%s: %s %s default %s identity %s', table_name, column_name,
                    ordinal_position, data_type, CASE is_nullable WHEN 'NO' THEN 'not null'
                    ELSE 'null' END, coalesce(column_default, '-'),
                    coalesce(identity_generation, '-')) AS line
      FROM information_schema.columns WHERE table_schema = current_schema()`)),
    ...(await lines(sql`
      SELECT format('constraint %s on %s: %s', conname, conrelid::regclass,
                    pg_get_constraintdef(oid)) AS line
      FROM pg_constraint WHERE connamespace = current_schema()::regnamespace`)),
    ...(await lines(sql`
      SELECT format('index %s: %s', indexname, indexdef) AS line
      FROM pg_indexes WHERE schemaname = current_schema()`)),
    ...(await lines(sql`
      SELECT format('trigger %s: %s', tgname, pg_get_triggerdef(t.oid)) AS line
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT tgisinternal AND c.relnamespace = current_schema()::regnamespace`)),
    ...(await lines(sql`
      SELECT format('function %s: %s', proname, pg_get_functiondef(oid)) AS line
      FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`)),
    ...(await lines(sql`
      SELECT format('sequence %s: %s from %s by %s', sequencename, data_type, start_value,
                    increment_by) AS line
      FROM pg_sequences WHERE schemaname = current_schema()`)),
  ];
  return found.map((line) => line.replaceAll(`${schema}.`, '')).sort();
}
