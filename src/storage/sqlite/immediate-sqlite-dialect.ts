import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * Kysely opens SQLite transactions with a deferred BEGIN: the write lock is taken at the first
 * write, and if another process (`nok admin` beside `nok start`) is writing then, SQLite fails
 * the upgrade at once with SQLITE_BUSY, without waiting on busy_timeout. Nok's transactions all
 * write, so they take the lock up front with BEGIN IMMEDIATE, which does wait.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
