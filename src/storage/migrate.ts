import type { Database } from './engine.js';

/**
 * Applies every migration not yet applied, in order, each in its own transaction with its
 * bookkeeping row. Forward-only: a database that has migrations this code does not know is
 * refused rather than run against.
 */
export async function migrate(database: Database, nowMs = Date.now()): Promise<number[]> {
  const { engine } = database;
  const known = new Set(engine.migrations.map((m) => m.id));
  const unknown = (await engine.appliedMigrations()).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new Error(
      `The database has migrations this version of Nok does not know (${unknown.join(', ')}); run a newer Nok.`,
    );
  }
  const applied: number[] = [];
  for (const migration of engine.migrations) {
    if (await engine.applyMigration(migration, nowMs)) applied.push(migration.id);
  }
  return applied;
}
