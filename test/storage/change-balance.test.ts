import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SYSTEM_ACTOR } from '../../src/domain/audit/audit-actor.js';
import { createAccount } from '../../src/domain/accounts/create-account.js';
import type { AccountStore } from '../../src/domain/accounts/account-store.js';
import type { BalanceWriter } from '../../src/domain/credits/ledger-store.js';
import type { Store, TransactionStore } from '../../src/domain/store.js';
import type { Transactor } from '../../src/domain/transactor.js';
import { changeBalance } from '../../src/storage/change-balance.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { fromLedger } from '../../src/storage/from-ledger.js';
import type { Db, Tables } from '../../src/storage/schema.js';
import type { Transaction } from 'kysely';
import { createStore } from '../../src/storage/store.js';
import { testEngines, type TestDatabase } from '../support/engines.js';

const NOW_MS = Date.parse('2026-11-22T12:00:00Z');

/**
 * Never called: `npm run typecheck` compiles it, and each `@ts-expect-error` fails the
 * typecheck if the line under it ever compiles, i.e. if a balance could change outside a
 * transaction again.
 */
export function balanceChangesOutsideATransactionDoNotCompile(store: Store, db: Db): void {
  const change = { accountId: 1, delta: 5, reason: 'top-up', nowMs: NOW_MS } as const;
  // @ts-expect-error a plain Store has no changeBalance: open a transaction and use its store
  void store.changeBalance(change);
  // @ts-expect-error a plain Store is not a TransactionStore
  const bound: TransactionStore = store;
  // @ts-expect-error the storage writer takes a Kysely Transaction, not a plain handle
  void changeBalance(db, change);
  void store.transaction((tx) => tx.changeBalance(change));
  void bound;
  // The same holds for the narrow ports a use case declares: a balance writer is had only as
  // what a transaction hands its work (ADR 0036).
  // @ts-expect-error a plain Store is not a BalanceWriter
  const writer: BalanceWriter = store;
  const moneyPort: Transactor<AccountStore & BalanceWriter> = store;
  void moneyPort.transaction((tx) => tx.changeBalance(change));
  void writer;
}

/**
 * Never called either: the same proof for writing the money's columns directly. Neither a plain
 * handle nor a transaction typed with the shared `Tables` can write `accounts.balance` or touch a
 * ledger row; `changeBalance` is the one writer (ADR 0031).
 */
export function moneyColumnsAreWrittenOnlyByChangeBalance(db: Db, trx: Transaction<Tables>): void {
  const account = { name: 'A', price_per_part: 1, next_ref_no: 1, status: 'active', created_at: 0 };
  const row = { account_id: 1, delta: 5, reason: 'top-up', balance_after: 5, created_at: 0 };
  // @ts-expect-error accounts.balance is not updatable
  void db.updateTable('accounts').set({ balance: 0 });
  // @ts-expect-error not by column name either
  void trx.updateTable('accounts').set('balance', 0);
  // @ts-expect-error nor from an expression over the column
  void trx.updateTable('accounts').set((eb) => ({ balance: eb.ref('balance') }));
  // @ts-expect-error an account is created with a balance of 0, its credits come through the ledger
  void db.insertInto('accounts').values({ ...account, balance: 100 });
  // @ts-expect-error credit_ledger is not a table of the shared types: no insert
  void trx.insertInto('credit_ledger').values(row);
  // @ts-expect-error no update
  void db.updateTable('credit_ledger').set({ delta: 0 });
  // @ts-expect-error no delete
  void db.deleteFrom('credit_ledger');
  // @ts-expect-error the ledger's readers get a select query, not a handle that could write
  void fromLedger(db).deleteFrom;
  void db.insertInto('accounts').values(account);
  void db.updateTable('accounts').set({ status: 'suspended' });
  void fromLedger(trx).select(['delta', 'balance_after']);
}

for (const engine of testEngines()) {
  describe(`balance changes (${engine.name})`, () => {
    let db: TestDatabase;
    let store: Store;
    before(async () => {
      db = await engine.create();
      store = createStore(db.database.db);
    });
    after(() => db.drop());

    async function account(credits: number): Promise<number> {
      return (
        await createAccount(store, { name: 'Ledger', credits, nowMs: NOW_MS, actor: SYSTEM_ACTOR })
      ).id;
    }

    async function state(accountId: number) {
      const ledger = await fromLedger(db.database.db)
        .select(['delta', 'reason', 'balance_after'])
        .where('account_id', '=', accountId)
        .orderBy('id')
        .execute();
      return {
        balance: (await store.findAccount(accountId))!.balance,
        ledger: ledger.map((row) => [row.reason, Number(row.delta), Number(row.balance_after)]),
      };
    }

    const debit = (accountId: number, amount: number) =>
      ({ accountId, delta: -amount, reason: 'send', nowMs: NOW_MS }) as const;

    it('has no changeBalance on a plain store at run time either', () => {
      assert.equal('changeBalance' in store, false);
    });

    it('writes the balance and its ledger row in the transaction, answering the balance after', async () => {
      const id = await account(10);
      const after = await store.transaction((tx) => tx.changeBalance(debit(id, 4)));
      assert.equal(after, 6);
      assert.deepEqual(await state(id), {
        balance: 6,
        ledger: [
          ['top-up', 10, 10],
          ['send', -4, 6],
        ],
      });
    });

    it('keeps neither the balance nor the ledger row of a transaction that fails after the change', async () => {
      const id = await account(10);
      const before = await state(id);
      await assert.rejects(
        store.transaction(async (tx) => {
          assert.equal(await tx.changeBalance(debit(id, 4)), 6);
          throw new Error('a later write of the same use case failed');
        }),
        /a later write/,
      );
      assert.deepEqual(await state(id), before);
    });

    it('refuses a debit the balance does not cover, writing nothing', async () => {
      const id = await account(3);
      const before = await state(id);
      assert.equal(await store.transaction((tx) => tx.changeBalance(debit(id, 4))), null);
      assert.deepEqual(await state(id), before);
      assert.equal(await store.transaction((tx) => tx.changeBalance(debit(id, 3))), 0);
    });

    it('refuses a change from a store kept past its transaction, writing nothing', async () => {
      const id = await account(10);
      const kept = await store.transaction(async (tx) => tx);
      const before = await state(id);
      await assert.rejects(kept.changeBalance(debit(id, 1)), /after its transaction ended/);
      assert.deepEqual(await state(id), before);
    });

    it('runs a nested transaction in the outer one: both roll back together', async () => {
      const id = await account(10);
      const before = await state(id);
      await assert.rejects(
        store.transaction(async (outer) => {
          await outer.transaction((inner) => inner.changeBalance(debit(id, 2)));
          throw new Error('the outer work failed');
        }),
        /outer work failed/,
      );
      assert.deepEqual(await state(id), before);
    });

    it('refuses a change of 0 or of a fraction of a credit', async () => {
      const id = await account(10);
      for (const delta of [0, 1.5, Number.NaN]) {
        await assert.rejects(
          store.transaction((tx) => tx.changeBalance({ ...debit(id, 0), delta })),
          RangeError,
        );
      }
      assert.equal((await state(id)).ledger.length, 1);
    });

    it('never goes below 0 when debits from separate connections race', async () => {
      const id = await account(10);
      // A second handle on the same database, as another process would have: on PostgreSQL the
      // debits really run at once and meet on the account row's lock.
      const other = db.schema === undefined ? null : openDatabase(db.url, { schema: db.schema });
      const stores = [store, other ? createStore(other.db) : store];
      try {
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            stores[i % 2]!.transaction((tx) => tx.changeBalance(debit(id, 3))),
          ),
        );
        assert.equal(results.filter((r) => r !== null).length, 3, 'three debits of 3 fit in 10');
        assert.deepEqual(
          results.filter((r) => r !== null).sort((a, b) => a! - b!),
          [1, 4, 7],
        );
      } finally {
        await other?.close();
      }
      const after = await state(id);
      assert.equal(after.balance, 1);
      assert.equal(await store.ledgerSum(id), 1);
      // In id order each row's balance is the one before plus its delta.
      let running = 0;
      for (const [, delta, balanceAfter] of after.ledger as [string, number, number][]) {
        running += delta;
        assert.equal(balanceAfter, running);
      }
    });
  });
}
