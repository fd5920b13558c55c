import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

export interface ImmediateSqliteDialectConfig extends SqliteDialectConfig {
  /** Whether the connection has a transaction open now (better-sqlite3's `inTransaction`). */
  readonly inTransaction: () => boolean;
}

/**
 * Kysely opens SQLite transactions with a deferred BEGIN: the write lock is taken at the first
 * write, and if another process (`nok admin` beside `nok start`) is writing then, SQLite fails
 * the upgrade at once with SQLITE_BUSY, without waiting on busy_timeout. Nok's transactions all
 * write, so they take the lock up front with BEGIN IMMEDIATE, which does wait.
 *
 * SQLite itself rolls a transaction back on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM,
 * https://www.sqlite.org/lang_transaction.html "Response To Errors Within A Transaction"). Kysely
 * then sends ROLLBACK to a connection with no transaction, which fails and replaces the original
 * error ("cannot rollback - no transaction is active"): the rollback is sent only when a
 * transaction is still open, so the caller sees the disk-full error that undid its work.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ImmediateSqliteDialectConfig;

  constructor(config: ImmediateSqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  readonly #inTransaction: () => boolean;

  constructor(config: ImmediateSqliteDialectConfig) {
    super(config);
    this.#inTransaction = config.inTransaction;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#inTransaction()) await super.rollbackTransaction(connection);
  }
}
