import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Insertable, Updateable } from 'kysely';
import { bookkeeping, migrations } from '../../src/storage/migrations/migrations.js';
import { tablesAfter } from '../../src/storage/migrations/tables-after.js';
import type { Step } from '../../src/storage/migrations/vocabulary.js';
import type { Row, Tables } from '../../src/storage/schema.js';
import { testEngines, type TestDatabase } from '../support/engines.js';
import {
  normalisePredicate,
  nullableKeys,
  readCatalogue,
  SQLITE_NULLABLE_KEYS,
  withKeysNotNull,
  type Catalogue,
} from '../support/schema-catalogue.js';

const engines = testEngines();
const catalogues = new Map<string, Catalogue>();
const databases: TestDatabase[] = [];

before(async () => {
  for (const engine of engines) {
    const db = await engine.create();
    databases.push(db);
    catalogues.set(engine.name, await readCatalogue(db.database));
  }
});
after(async () => {
  for (const db of databases) await db.drop();
});

for (const engine of engines) {
  describe(`the migrated schema, read from the catalogue (${engine.name})`, () => {
    it('shows columns, primary keys, unique constraints, partial indexes, foreign keys and triggers', () => {
      const {
        messages,
        recipients,
        api_keys: apiKeys,
        audit_events: audit,
      } = catalogues.get(engine.name)!;
      assert.deepEqual(messages!.columns.status, { type: 'text', notNull: true, default: null });
      assert.deepEqual(messages!.columns.materialised_upto, {
        type: 'integer',
        notNull: true,
        default: '0',
      });
      assert.deepEqual(recipients!.primaryKey, ['message_id', 'seq']);
      assert.deepEqual(apiKeys!.indexes['unique(prefix)'], {
        columns: ['prefix'],
        unique: true,
        where: null,
      });
      assert.deepEqual(messages!.indexes.messages_dispatchable, {
        columns: ['dispatch_upto', 'id'],
        unique: false,
        where: "status = 'pending' and dispatch_upto < recipient_total",
      });
      assert.deepEqual(apiKeys!.foreignKeys, ['account_id -> accounts(id)']);
      assert.deepEqual(audit!.triggers, [
        'audit_events_no_delete: before delete',
        'audit_events_no_update: before update',
      ]);
    });

    it('takes NULL in no key column but, on SQLite, the three landed lone TEXT keys', () => {
      const expected = engine.name === 'sqlite' ? SQLITE_NULLABLE_KEYS : [];
      assert.deepEqual(nullableKeys(catalogues.get(engine.name)!), expected);
    });
  });
}

describe('predicates and defaults as either engine prints them', () => {
  it('read alike once casts, parentheses and case are set aside', () => {
    assert.equal(
      normalisePredicate("((status = 'pending'::text) AND (dispatch_upto < recipient_total))"),
      normalisePredicate("status = 'pending' AND dispatch_upto < recipient_total"),
    );
    assert.equal(normalisePredicate("'active'::text"), "'active'");
    assert.notEqual(normalisePredicate('a < b'), normalisePredicate('a <= b'));
  });
});

// Both engines at hand (NOK_TEST_PG_URL set; CI requires it): their catalogues must agree.
if (engines.length === 2) {
  describe('the migrations on both engines', () => {
    it('make the same tables, columns, types, defaults, keys, indexes and triggers on both engines', () => {
      // Apart from SQLite's nullable keys, which the test above pins down.
      const sqlite = withKeysNotNull(catalogues.get('sqlite')!);
      const postgres = catalogues.get('postgres')!;
      assert.deepEqual(Object.keys(postgres).sort(), Object.keys(sqlite).sort());
      // Every table that differs, each under its name, so that one run shows all the drift.
      const differing = Object.keys(sqlite).filter(
        (table) => !isDeepStrictEqual(postgres[table], sqlite[table]),
      );
      const only = (catalogue: Catalogue) =>
        Object.fromEntries(differing.map((table) => [table, catalogue[table]]));
      assert.deepEqual(only(postgres), only(sqlite), `differing: ${differing.join(', ')}`);
    });
  });
}

/** What the migrations say each table is, in the catalogue's words, columns in their order. */
function declaredTables() {
  const tables = tablesAfter([bookkeeping, ...migrations.flatMap((m): readonly Step[] => m.steps)]);
  return Object.fromEntries(
    Object.entries(tables).map(([name, table]) => [
      name,
      {
        columns: Object.entries(table.columns).map(([column, c]) => [
          column,
          {
            type: c.type,
            notNull: !c.nullable || c.primaryKey,
            default:
              c.default === null
                ? null
                : normalisePredicate(
                    typeof c.default === 'number' ? `${c.default}` : `'${c.default}'`,
                  ),
          },
        ]),
        primaryKey: table.primaryKey,
      },
    ]),
  );
}

for (const engine of engines) {
  describe(`the tables the migrations leave (${engine.name})`, () => {
    it('are the catalogue’s tables, each column in order with its type, nullability and default, and each key', () => {
      const read = Object.fromEntries(
        Object.entries(withKeysNotNull(catalogues.get(engine.name)!)).map(([name, table]) => [
          name,
          { columns: Object.entries(table.columns), primaryKey: table.primaryKey },
        ]),
      );
      assert.deepEqual(read, declaredTables());
    });
  });
}

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const holds = <_ extends true>() => undefined;

/**
 * Never called: `npm run typecheck` compiles it, and fails if the Kysely tables stop following
 * each rule by which they are derived from the migrations (ADR 0037).
 */
export function kyselyTablesFollowTheMigrations(): void {
  // A table as created, its portable types as JavaScript values, NULL where it is nullable.
  holds<Equal<Row<'sender_documents'>['content'], Buffer>>();
  holds<Equal<Row<'sender_documents'>['file_name'], string>>();
  holds<Equal<Row<'messages'>['scheduled_at'], number | null>>();
  // A column a later migration adds joins its table; a dropped table is gone.
  holds<Equal<Row<'users'>['totp_last_step'], number | null>>();
  holds<Equal<Row<'recipients'>['parts_accepted'], number>>();
  holds<Equal<Extract<keyof Tables, 'sign_in_failures'>, never>>();
  // The database fills identities and defaults: optional on insert, required otherwise.
  holds<Equal<Insertable<Tables['users']>['id'], number | undefined>>();
  holds<Equal<Insertable<Tables['users']>['status'], string | undefined>>();
  holds<Equal<Insertable<Tables['users']>['email'], string>>();
  // The migrations' own bookkeeping is a table too.
  holds<Equal<Row<'nok_migrations'>, { id: number; name: string; applied_at: number }>>();
  // Money (ADR 0031): the balance is read-only, the ledger no table of the shared types.
  holds<Equal<Extract<keyof Insertable<Tables['accounts']>, 'balance'>, never>>();
  holds<Equal<Extract<keyof Updateable<Tables['accounts']>, 'balance'>, never>>();
  holds<Equal<Row<'accounts'>['balance'], number>>();
  holds<Equal<Extract<keyof Tables, 'credit_ledger'>, never>>();
}
