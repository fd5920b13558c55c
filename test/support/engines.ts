import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/storage/engine.js';
import { migrate } from '../../src/storage/migrate.js';
import { openDatabase } from '../../src/storage/open-database.js';

export interface TestDatabase {
  readonly database: Database;
  /** The NOK_DATABASE_URL that reaches this same database (for child processes). */
  readonly url: string;
  readonly schema?: string;
  drop(): Promise<void>;
}

export interface TestEngine {
  readonly name: 'sqlite' | 'postgres';
  /** A fresh database of its own, migrated unless `migrated` is false. */
  create(options?: { migrated?: boolean }): Promise<TestDatabase>;
}

const sqlite: TestEngine = {
  name: 'sqlite',
  async create({ migrated = true } = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'nok-test-'));
    const url = join(dir, 'nok.db');
    const database = openDatabase(url);
    if (migrated) await migrate(database);
    return {
      database,
      url,
      async drop() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

function postgres(url: string): TestEngine {
  return {
    name: 'postgres',
    async create({ migrated = true } = {}) {
      const schema = `nok_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const database = openDatabase(url, { schema });
      if (migrated) await migrate(database);
      return {
        database,
        url,
        schema,
        async drop() {
          await database.close();
          const cleanup = new pg.Client({ connectionString: url });
          await cleanup.connect();
          await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
          await cleanup.end();
        },
      };
    },
  };
}

/**
 * SQLite always; PostgreSQL when NOK_TEST_PG_URL is set. Under CI a missing PostgreSQL URL is
 * an error, not a quiet skip.
 */
/**
 * The one engine a browser suite runs on. Pages behave the same over either engine, and the
 * console API's own tests run on both; a suite names the engine it prefers, so that with
 * PostgreSQL configured the browser still drives some pages over each. Without PostgreSQL every
 * suite runs on SQLite.
 */
export function pageEngine(prefer: TestEngine['name']): TestEngine {
  const engines = testEngines();
  return engines.find((engine) => engine.name === prefer) ?? engines[0]!;
}

export function testEngines(): TestEngine[] {
  const url = process.env.NOK_TEST_PG_URL;
  if (!url && process.env.CI === 'true') {
    throw new Error('CI=true but NOK_TEST_PG_URL is not set: the PostgreSQL suite must run in CI');
  }
  return url ? [sqlite, postgres(url)] : [sqlite];
}
