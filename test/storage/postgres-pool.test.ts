import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/storage/open-database.js';
import { testEngines } from '../support/engines.js';

// PostgreSQL only: SQLite has no pooled connections.
for (const engine of testEngines().filter((e) => e.name === 'postgres')) {
  describe('PostgreSQL connection pool', () => {
    it('survives an idle connection broken by the server, reports it, and queries again', async () => {
      const test = await engine.create();
      const errors = new EventEmitter();
      const database = openDatabase(test.url, {
        schema: test.schema,
        onIdleConnectionError: (error) => errors.emit('error-seen', error),
      });
      try {
        const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(
          database.db,
        );
        const pid = rows[0]!.pid; // that connection is now idle in the pool

        const seen = once(errors, 'error-seen');
        const admin = new pg.Client({ connectionString: test.url });
        await admin.connect();
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await admin.end();
        const [error] = (await seen) as [Error];
        assert.match(error.message, /terminat/i);

        const again = await sql<{ one: number }>`SELECT 1 AS one`.execute(database.db);
        assert.equal(again.rows[0]!.one, 1);
      } finally {
        await database.close();
        await test.drop();
      }
    });
  });
}
