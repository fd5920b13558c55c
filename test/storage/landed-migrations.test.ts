// Migrations 1–9 landed as SQL written once per engine; they are now written once, in the
// vocabulary (ADR 0037). test/storage/landed-migrations/ keeps that SQL as it landed, file by
// file, so that the definitions can be held to it: the same statements, and databases that
// cannot be told apart.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Migration } from '../../src/storage/migration.js';
import { migrate } from '../../src/storage/migrate.js';
import { migrations, migrationsFor } from '../../src/storage/migrations/migrations.js';
import type { EngineName } from '../../src/storage/migrations/render-migration.js';
import { testEngines, type TestDatabase } from '../support/engines.js';
import { readDefinitions } from '../support/schema-definitions.js';

const LANDED = new URL('./landed-migrations/', import.meta.url);

/** The landed migrations of one engine, from files named `0001-initial.sql`. */
function landed(engine: EngineName): Migration[] {
  const directory = new URL(`${engine}/`, LANDED);
  return readdirSync(directory)
    .sort()
    .flatMap((file) => {
      const [, id, name] = /^(\d{4})-(.+)\.sql$/.exec(file) ?? [];
      if (!id || !name) return [];
      return [{ id: Number(id), name, sql: readFileSync(new URL(file, directory), 'utf8') }];
    });
}

/** The statement that made the bookkeeping table before any migration ran. */
const landedBookkeeping = (engine: EngineName) =>
  readFileSync(new URL(`${engine}/bookkeeping.sql`, LANDED), 'utf8');

/** The statements as written, without the comments and blank lines between them. */
const statements = (sql: string) =>
  sql
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('--'))
    .join('\n');

describe('the migrations written once', () => {
  for (const engine of ['sqlite', 'postgres'] as const) {
    it(`render each landed migration to its landed ${engine} statements, to the letter`, () => {
      const frozen = landed(engine);
      assert.equal(frozen.length, 9);
      const rendered = migrationsFor(engine).slice(0, frozen.length);
      assert.deepEqual(
        rendered.map(({ id, name, sql }) => ({ id, name, sql: statements(sql) })),
        frozen.map(({ id, name, sql }) => ({ id, name, sql: statements(sql) })),
      );
    });
  }
});

for (const engine of testEngines()) {
  describe(`a database migrated by the landed SQL (${engine.name})`, () => {
    let old: TestDatabase;
    let fresh: TestDatabase;
    before(async () => {
      old = await engine.create({ migrated: false });
      fresh = await engine.create();
    });
    after(async () => {
      await old.drop();
      await fresh.drop();
    });

    it('has only the newer migrations to apply, and is then the database the definitions make', async () => {
      // As the earlier code applied them: its bookkeeping table, then each migration under the
      // engine's lock, recorded as it was.
      await sql.raw(landedBookkeeping(engine.name)).execute(old.database.db);
      for (const migration of landed(engine.name)) {
        assert.equal(await old.database.engine.applyMigration(migration, 0), true);
      }
      const newer = migrations.slice(landed(engine.name).length).map((m) => m.id);
      assert.deepEqual(await migrate(old.database), newer);

      const [was, is] = [
        await readDefinitions(old.database),
        await readDefinitions(fresh.database),
      ];
      // To the letter, but for the layout of the bookkeeping table's statement (SQLite keeps the
      // text): one line then, a line per column now.
      const bookkeeping = (line: string) => line.startsWith('table nok_migrations ');
      assert.deepEqual(
        was.filter((line) => !bookkeeping(line)),
        is.filter((line) => !bookkeeping(line)),
      );
      const layoutAside = (lines: string[]) =>
        lines.map((line) => line.replace(/\s*([(),])\s*/g, '$1').replace(/\s+/g, ' '));
      assert.deepEqual(layoutAside(was), layoutAside(is));
      const recorded = (test: TestDatabase) =>
        test.database.db
          .selectFrom('nok_migrations')
          .select(['id', 'name'])
          .orderBy('id')
          .execute();
      assert.deepEqual(await recorded(old), await recorded(fresh));
    });
  });
}
