import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { recordAudit } from '../../src/domain/audit/record-audit.js';
import type { Store } from '../../src/domain/store.js';
import { createStore } from '../../src/storage/store.js';
import { testEngines, type TestDatabase } from '../support/engines.js';

/**
 * The audit log is append-only in the database itself (migration 7): whatever code or hand
 * asks, a line is never changed nor deleted, on either engine.
 */
for (const engine of testEngines()) {
  describe(`the audit log, append-only (${engine.name})`, () => {
    let test: TestDatabase;
    let store: Store;
    before(async () => {
      test = await engine.create();
      store = createStore(test.database.db);
    });
    after(() => test.drop());

    const lines = async () =>
      (await store.listAuditEvents({ offset: 0, limit: 100 })).items.map((e) => ({
        id: e.id,
        action: e.action,
        ip: e.ip,
      }));

    it('refuses to change or delete a line, alone or in a transaction, and keeps it as written', async () => {
      for (const ip of ['192.0.2.1', '192.0.2.2']) {
        await recordAudit(store, {
          actorUserId: null,
          accountId: null,
          action: 'session.sign-in-failed',
          detail: { email: 'someone@example.test', step: 'password' },
          ip,
          at: 1,
        });
      }
      const written = await lines();
      assert.equal(written.length, 2);
      const db = test.database.db;

      const attempts: Record<string, () => Promise<unknown>> = {
        'an update of one line': () =>
          db
            .updateTable('audit_events')
            .set({ ip: '203.0.113.9' })
            .where('id', '=', written[0]!.id)
            .execute(),
        'an update of every line': () =>
          db.updateTable('audit_events').set({ action: 'session.sign-in' }).execute(),
        'a delete of one line': () =>
          db.deleteFrom('audit_events').where('id', '=', written[1]!.id).execute(),
        'a delete of every line': () => db.deleteFrom('audit_events').execute(),
        'raw SQL': () => sql`DELETE FROM audit_events`.execute(db),
        'a delete in the transaction that wrote a line': () =>
          db.transaction().execute(async (trx) => {
            await recordAudit(createStore(trx), {
              actorUserId: null,
              accountId: null,
              action: 'session.sign-out',
              ip: null,
              at: 2,
            });
            await trx.deleteFrom('audit_events').execute();
          }),
      };
      for (const [what, attempt] of Object.entries(attempts)) {
        await assert.rejects(attempt, /audit_events is append-only/, what);
      }
      assert.deepEqual(await lines(), written, 'every line as it was, and nothing added');
    });
  });
}
