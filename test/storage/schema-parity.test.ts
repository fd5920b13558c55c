import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { testEngines, type TestDatabase } from '../support/engines.js';
import { normalisePredicate, readCatalogue, type Catalogue } from '../support/schema-catalogue.js';

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
  describe('the migration twins', () => {
    it('make the same tables, columns, types, defaults, keys, indexes and triggers on both engines', () => {
      const sqlite = catalogues.get('sqlite')!;
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
