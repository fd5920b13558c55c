import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/storage/engine.js';
import { migrate } from '../../src/storage/migrate.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { migrations } from '../../src/storage/migrations/migrations.js';
import { testEngines, type TestDatabase } from '../support/engines.js';

describe('the migration list', () => {
  it('numbers migrations 1, 2, 3… without gaps or repeats, each with a name of its own', () => {
    assert.ok(migrations.length > 0);
    assert.deepEqual(
      migrations.map((m) => m.id),
      migrations.map((_, i) => i + 1),
    );
    assert.equal(new Set(migrations.map((m) => m.name)).size, migrations.length);
  });
});

for (const engine of testEngines()) {
  describe(`migrate (${engine.name})`, () => {
    let test: TestDatabase;
    before(async () => {
      test = await engine.create();
    });
    after(() => test.drop());

    const recorded = (database: Database) =>
      database.db.selectFrom('nok_migrations').select(['id', 'name']).orderBy('id').execute();

    it('applies nothing on a second run', async () => {
      // engine.create() has migrated once already.
      assert.deepEqual(await migrate(test.database), []);
      assert.deepEqual(await migrate(test.database), []);
      const rows = await recorded(test.database);
      assert.deepEqual(
        rows.map((row) => ({ id: Number(row.id), name: row.name })),
        test.database.engine.migrations.map((m) => ({ id: m.id, name: m.name })),
      );
      assert.deepEqual(
        await test.database.engine.appliedMigrations(),
        test.database.engine.migrations.map((m) => m.id),
      );
    });

    it('refuses a database that has a migration this code does not know, saying what to do', async () => {
      await test.database.db
        .insertInto('nok_migrations')
        .values({ id: 999, name: 'from-the-future', applied_at: 0 })
        .execute();
      try {
        await assert.rejects(migrate(test.database), (error: Error) => {
          assert.match(error.message, /999/);
          assert.match(error.message, /does not know/);
          assert.match(error.message, /newer Nok/);
          return true;
        });
      } finally {
        await test.database.db.deleteFrom('nok_migrations').where('id', '=', 999).execute();
      }
      assert.deepEqual(await migrate(test.database), []);
    });
  });
}

/** A brand-new, empty database of this engine, opened twice as two processes would. */
async function freshPair(engine: 'sqlite' | 'postgres', pgUrl: string | undefined) {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'nok-migrate-'));
    const path = join(dir, 'nok.db');
    const a = openDatabase(path);
    const b = openDatabase(path);
    return {
      a,
      b,
      async drop() {
        await a.close();
        await b.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `nok_migrate_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const a = openDatabase(pgUrl!, { schema });
  const b = openDatabase(pgUrl!, { schema });
  return {
    a,
    b,
    async drop() {
      await a.close();
      await b.close();
      const cleanup = new pg.Client({ connectionString: pgUrl });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

for (const engine of testEngines()) {
  describe(`concurrent migrators on a fresh database (${engine.name})`, () => {
    it('both succeed and every migration is applied exactly once', async () => {
      const pair = await freshPair(engine.name, process.env.NOK_TEST_PG_URL);
      try {
        const all = pair.a.engine.migrations.map((m) => m.id);
        const [fromA, fromB] = await Promise.all([migrate(pair.a), migrate(pair.b)]);
        assert.deepEqual(
          [...fromA, ...fromB].sort((x, y) => x - y),
          all,
          'each migration applied by one of them',
        );
        const rows = await pair.a.db.selectFrom('nok_migrations').select('id').execute();
        assert.equal(rows.length, all.length);
        // The schema is usable from both connections.
        const counted = await pair.b.db
          .selectFrom('accounts')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow();
        assert.equal(Number(counted.n), 0);
        assert.deepEqual(await migrate(pair.b), []);
      } finally {
        await pair.drop();
      }
    });
  });
}
