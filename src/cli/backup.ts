// `nok backup FILE`: an online copy of the SQLite database of NOK_DATABASE_URL, taken while Nok
// runs on it (EngineOps.backup). The copy is a new file; nothing is overwritten.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Config } from '../config.js';
import { ExplainedError } from '../domain/explained-error.js';
import { openMigratedDatabase } from '../runtime/open-migrated-database.js';
import { describeError } from '../runtime/start-steps.js';

export const BACKUP_USAGE = 'Usage: nok backup FILE';

export async function runBackup(
  config: Config,
  args: readonly string[],
  out: (text: string) => void = console.log,
): Promise<number> {
  const [destination, ...extra] = args;
  if (destination === undefined || extra.length > 0 || destination.startsWith('-')) {
    console.error(BACKUP_USAGE);
    return 2;
  }
  const target = resolve(destination);
  if (existsSync(target)) {
    throw new ExplainedError(`${target} exists; nok backup writes a new file and overwrites none`);
  }
  const { database } = await openMigratedDatabase(config.databaseUrl, { nowMs: Date.now() });
  try {
    const started = performance.now();
    try {
      await database.engine.backup(target);
    } catch (error) {
      if (error instanceof ExplainedError) throw error;
      throw new ExplainedError(`Cannot write the backup to ${target}: ${describeError(error)}`, {
        cause: error,
      });
    }
    const seconds = (performance.now() - started) / 1000;
    const megabytes = statSync(target).size / 1e6;
    out(
      `Backed up ${config.databaseUrl} to ${target}: ${megabytes.toFixed(1)} MB in ${seconds.toFixed(1)} s`,
    );
  } finally {
    await database.close();
  }
  return 0;
}
