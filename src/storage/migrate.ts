import type { Database } from './engine.js';

/**
 * Applies every migration not yet applied, in order, each in its own transaction with its
 * bookkeeping row. Forward-only: a database that has migrations this code does not know is
 * refused rather than run against.
 */
export async function migrate(database: Database, nowMs = Date.now()): Promise<number[]> {
  const { engine } = database;
  const known = new Set(engine.migrations.map((m) => m.id));
  const recorded = new Set(await engine.appliedMigrations());
  const unknown = [...recorded].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new Error(
      `The database has migrations this version of Nok does not know (${unknown.join(', ')}); run a newer Nok.`,
    );
  }
  const applied: number[] = [];
  // Those recorded already are not asked for again: each ask takes the write lock, which a
  // busy Nok holds often, and every command and role opens the database this way. Another
  // migrator may still apply one in between; applyMigration checks again under the lock.
  for (const migration of engine.migrations) {
    if (recorded.has(migration.id)) continue;
    if (await engine.applyMigration(migration, nowMs)) applied.push(migration.id);
  }
  return applied;
}
