import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import type { Store } from '../../src/domain/store.js';
import { createStore } from '../../src/storage/store.js';
import { testEngines, type TestDatabase } from '../support/engines.js';

const NOW_MS = Date.parse('2026-11-28T12:00:00Z');

// The store's query methods are built per area at first use (storage/store.ts): these check that
// a store, and the one a transaction hands its work, behave as one object of every method.
for (const engine of testEngines()) {
  describe(`the store's composition (${engine.name})`, () => {
    let db: TestDatabase;
    let store: Store;
    before(async () => {
      db = await engine.create();
      store = createStore(db.database.db);
    });
    after(() => db.drop());

    it('has every method of every area, on the store and on a transaction, however read', async () => {
      const names = [
        'findAccount',
        'listUsers',
        'findMessageByUuid',
        'messageCountsByUuid',
        'listWebhookEndpoints',
        'insertAuditEvent',
      ] as const;
      for (const name of names) {
        assert.equal(typeof store[name as keyof Store], 'function', name);
        assert.ok(name in store, name);
      }
      const account = await createAccount(store, {
        name: 'Composed',
        credits: 0,
        nowMs: NOW_MS,
        actor: SYSTEM_ACTOR,
      });
      // A method taken off the object, as a use case's destructuring does, still works.
      const { findAccount } = store;
      assert.equal((await findAccount(account.id))?.name, 'Composed');
      await store.transaction(async (tx) => {
        const { findAccount: inTransaction } = tx;
        assert.equal((await inTransaction(account.id))?.name, 'Composed');
        assert.equal(typeof tx.changeBalance, 'function');
        // A nested transaction is the same transaction.
        await tx.transaction(async (nested) => assert.equal(nested, tx));
      });
    });

    it('runs a transaction store’s methods in its transaction: a failure undoes them all', async () => {
      const account = await createAccount(store, {
        name: 'Before',
        credits: 0,
        nowMs: NOW_MS,
        actor: SYSTEM_ACTOR,
      });
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.changeBalance({
            accountId: account.id,
            delta: 50,
            reason: 'top-up',
            nowMs: NOW_MS,
          });
          await tx.setAccountStatus(account.id, 'suspended');
          assert.equal((await tx.findAccount(account.id))?.status, 'suspended');
          throw new Error('undo');
        }),
        /undo/,
      );
      const stored = await store.findAccount(account.id);
      assert.equal(stored?.status, 'active');
      assert.equal(stored?.balance, 0);
    });

    it('gives each transaction its own store, bound to it', async () => {
      const seen: Store[] = [];
      await store.transaction(async (tx) => void seen.push(tx));
      await store.transaction(async (tx) => void seen.push(tx));
      assert.notEqual(seen[0], seen[1]);
      await assert.rejects(
        (seen[0] as unknown as { changeBalance: (c: object) => Promise<unknown> }).changeBalance({
          accountId: 1,
          delta: 1,
          reason: 'top-up',
          nowMs: NOW_MS,
        }),
        /after its transaction ended/,
      );
    });
  });
}
