import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';
import { moneyOf, msisdns } from './fault-fixtures.js';

// SQLite only: SQLITE_FULL is made real with PRAGMA max_page_count, which PostgreSQL has not.
describe('a SQLite transaction failing on a full disk', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness(testEngines().find((e) => e.name === 'sqlite')!);
  });
  after(() => h.close());

  const fill = async (full: boolean) => {
    const db = h.db.database.db;
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
    const pages = full ? rows[0]!.page_count : 1_073_741_823;
    await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(db);
  };

  it('rolls back whole and answers 503, not a 500 from a ROLLBACK SQLite had already done', async () => {
    const c = await h.customer({ credits: 10_000 });
    const before = await moneyOf(h, c.account.id);
    // A send large enough that SQLite, out of pages mid-transaction, rolls it back by itself.
    const send = () =>
      h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: c.key,
        payload: { sender: c.sender, content: 'Full', msisdns: msisdns(3000) },
      });
    await fill(true);
    try {
      const refused = await send();
      assert.equal(refused.statusCode, 503, refused.body);
      assert.equal(refused.json().code, 'STORE_UNAVAILABLE');
    } finally {
      await fill(false);
    }
    assert.deepEqual(await moneyOf(h, c.account.id), before, 'no balance change, no ledger row');
    const messages = await h.db.database.db.selectFrom('messages').select('id').execute();
    assert.equal(messages.length, 0, 'no message kept');
    // The connection is out of the failed transaction: the same send is accepted now.
    assert.equal((await send()).statusCode, 200);
    assert.equal((await moneyOf(h, c.account.id)).balance, 10_000 - 3000);
  });
});
