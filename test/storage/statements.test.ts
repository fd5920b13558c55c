import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { bind, statement } from '../../src/storage/statements.js';

const db = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('statements compiled once', () => {
  it('sends a multi-line statement as one line and binds its values by name', () => {
    const st = statement((p: { a: number; b: string }) =>
      sql`SELECT ${p.a}
          AS a,
        ${p.b} AS b`.compile(db),
    );
    assert.equal(st.sql, 'SELECT $1 AS a, $2 AS b');
    assert.deepEqual(bind(st, { a: 1, b: 'x' }), [1, 'x']);
  });

  it('refuses a line comment, which joining the lines would turn on the rest', () => {
    assert.throws(
      () => statement(() => sql`SELECT 1 -- one\n, 2`.compile(db)),
      /may not hold "--"/,
    );
  });
});
