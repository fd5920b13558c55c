import type { Database, OpenDatabaseOptions } from '../storage/engine.js';
import { migrate } from '../storage/migrate.js';
import { openDatabase } from '../storage/open-database.js';
import { ExplainedError } from '../domain/explained-error.js';
import { describeError } from './start-steps.js';

/**
 * The database of NOK_DATABASE_URL, opened and migrated, for every command that uses one
 * (`nok start` and the roles, `nok migrate`, `nok admin …`). A database that cannot be opened or
 * migrated is one line naming the setting, never a stack: the operator has a URL to fix.
 */
export async function openMigratedDatabase(
  databaseUrl: string,
  options: OpenDatabaseOptions & { readonly nowMs: number },
): Promise<{ database: Database; applied: number[] }> {
  const { nowMs, ...openOptions } = options;
  let database: Database | undefined;
  try {
    database = openDatabase(databaseUrl, openOptions);
    const applied = await migrate(database, nowMs);
    return { database, applied };
  } catch (error) {
    await database?.close().catch(() => undefined);
    throw new ExplainedError(
      `Cannot open the database ${withoutPassword(databaseUrl)} (NOK_DATABASE_URL): ${describeError(error)}`,
      { cause: error },
    );
  }
}

/** A database URL fit for a message: a PostgreSQL password becomes `***`. */
export function withoutPassword(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
