import type { Database, OpenDatabaseOptions } from './engine.js';
import { openPostgres } from './postgres/open-postgres.js';
import { openSqlite } from './sqlite/open-sqlite.js';

/** `postgres://…` or `postgresql://…` selects PostgreSQL; anything else is a SQLite file path. */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  return /^postgres(ql)?:\/\//.test(url) ? openPostgres(url, options) : openSqlite(url);
}
