import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { fromLedger } from '../../src/storage/from-ledger.js';

const SENDS = 50;
const CREDITS = 25;

for (const engine of testEngines()) {
  describe(`concurrent sends against one balance (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it(`accepts exactly ${CREDITS} of ${SENDS} concurrent one-credit sends against a balance of ${CREDITS}`, async () => {
      const c = await h.customer({ credits: CREDITS });
      // inject runs every request at once; on PostgreSQL they contend for the pool's
      // connections and the account row, on SQLite for its one connection.
      const responses = await Promise.all(
        Array.from({ length: SENDS }, (_, i) =>
          h.request({
            method: 'POST',
            url: '/api/v2/sms/send',
            key: c.key,
            payload: {
              sender: c.sender,
              content: `concurrent ${i}`,
              msisdns: [`08${String(10_000_000 + i)}`],
            },
          }),
        ),
      );

      const accepted = responses.filter((r) => r.statusCode === 200);
      const refused = responses.filter((r) => r.statusCode === 402);
      assert.equal(accepted.length, CREDITS, responses.map((r) => r.statusCode).join(','));
      assert.equal(refused.length, SENDS - CREDITS);
      for (const r of refused) assert.equal(r.json().code, 'INSUFFICIENT_CREDITS');

      const balances = accepted.map((r) => r.json().balance as number);
      assert.deepEqual(
        [...balances].sort((a, b) => a - b),
        Array.from({ length: CREDITS }, (_, i) => i),
        'each accepted send saw its own balance after debit',
      );
      assert.equal(new Set(accepted.map((r) => r.json().uuid)).size, CREDITS);
      assert.equal(new Set(accepted.map((r) => r.json().refNo)).size, CREDITS, 'refNo unique');

      const account = await h.store.findAccount(c.account.id);
      assert.equal(account!.balance, 0);
      assert.equal(await h.store.ledgerSum(c.account.id), 0);

      const ledger = await fromLedger(h.db.database.db)
        .select(['delta', 'reason', 'balance_after'])
        .where('account_id', '=', c.account.id)
        .orderBy('id')
        .execute();
      // Serialised debits: each send's row starts from the balance the previous one left, so
      // the sends' rows step down by one from the credit to nothing, none seeing a stale balance.
      const sends = ledger.filter((row) => row.reason === 'send');
      assert.deepEqual(
        sends.map((row) => [Number(row.delta), Number(row.balance_after)]),
        Array.from({ length: CREDITS }, (_, i) => [-1, CREDITS - 1 - i]),
        'each debit in the ledger saw the balance the one before it left',
      );
      let running = 0;
      for (const row of ledger) {
        running += Number(row.delta);
        assert.equal(Number(row.balance_after), running, 'each balance_after is the running sum');
      }

      const messages = await h.db.database.db
        .selectFrom('messages')
        .select(['uuid'])
        .where('account_id', '=', c.account.id)
        .execute();
      assert.equal(messages.length, CREDITS, 'refused sends store nothing');
      assert.deepEqual(
        new Set(messages.map((m) => m.uuid)),
        new Set(accepted.map((r) => r.json().uuid)),
      );
      const listed = await h.request({ method: 'GET', url: '/api/v2/sms?limit=100', key: c.key });
      assert.equal(listed.json().total, CREDITS);
    });
  });
}
