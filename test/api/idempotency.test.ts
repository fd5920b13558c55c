import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addCredits } from '../../src/domain/credits/add-credits.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

for (const engine of testEngines()) {
  describe(`Idempotency-Key on send (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    const body = (c: Customer, content = 'Hello', msisdns = ['0812345678', '0812345679']) => ({
      sender: c.sender,
      content,
      msisdns,
    });

    const send = (c: Customer, payload: object, key?: string) =>
      h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: c.key,
        payload,
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });

    async function balance(c: Customer): Promise<number> {
      return (await h.store.findAccount(c.account.id))!.balance;
    }

    async function messageCount(c: Customer): Promise<number> {
      const rows = await h.db.database.db
        .selectFrom('messages')
        .select('id')
        .where('account_id', '=', c.account.id)
        .execute();
      return rows.length;
    }

    it('replays the first answer for the same key and body, marked Idempotent-Replayed, and charges once', async () => {
      const c = await h.customer({ credits: 100 });
      const first = await send(c, body(c), 'order-1');
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      assert.equal(first.json().balance, 98);

      const second = await send(c, body(c), 'order-1');
      assert.equal(second.statusCode, 200, second.body);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.deepEqual(second.json(), first.json());

      assert.equal(await balance(c), 98);
      assert.equal(await messageCount(c), 1);
      assert.equal(await h.store.ledgerSum(c.account.id), 98);

      const without = await send(c, body(c));
      assert.equal(without.statusCode, 200);
      assert.notEqual(without.json().uuid, first.json().uuid, 'a send without a key is a new send');
      assert.equal(await balance(c), 96);
    });

    it('stores one message and charges once when ten requests with one key arrive at once', async () => {
      const c = await h.customer({ credits: 100 });
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => send(c, body(c), 'burst')),
      );
      for (const r of responses) assert.equal(r.statusCode, 200, r.body);
      assert.equal(new Set(responses.map((r) => r.json().uuid)).size, 1);
      assert.equal(responses.filter((r) => r.headers['idempotent-replayed'] === 'true').length, 9);
      assert.equal(await messageCount(c), 1);
      assert.equal(await balance(c), 98);
      assert.equal(await h.store.ledgerSum(c.account.id), 98);
    });

    it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body, storing nothing', async () => {
      const c = await h.customer({ credits: 100 });
      assert.equal((await send(c, body(c), 'order-2')).statusCode, 200);
      for (const other of [
        body(c, 'Different'),
        body(c, 'Hello', ['0812345678']),
        { ...body(c), dryRun: false },
        // A body its schema refuses is still judged by the key first.
        body(c, 'x'.repeat(1_001)),
        { ...body(c), templateId: 0 },
      ]) {
        const reused = await send(c, other, 'order-2');
        assert.equal(reused.statusCode, 422, reused.body);
        assert.equal(reused.json().code, 'IDEMPOTENCY_KEY_REUSED');
        assert.equal(typeof reused.json().error, 'string');
      }
      assert.equal(await messageCount(c), 1);
      assert.equal(await balance(c), 98);
    });

    it('keeps keys per account: another account may use the same key for its own send', async () => {
      const a = await h.customer({ credits: 100 });
      const b = await h.customer({ credits: 100 });
      const fromA = await send(a, body(a), 'shared-key');
      const fromB = await send(b, body(b), 'shared-key');
      assert.equal(fromA.statusCode, 200, fromA.body);
      assert.equal(fromB.statusCode, 200, fromB.body);
      assert.equal(fromB.headers['idempotent-replayed'], undefined);
      assert.notEqual(fromB.json().uuid, fromA.json().uuid);
      assert.equal(await balance(a), 98);
      assert.equal(await balance(b), 98);

      const uuidOfA = fromA.json().uuid;
      const message = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${fromB.json().uuid}`,
        key: b.key,
      });
      assert.equal(message.statusCode, 200);
      const forbidden = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuidOfA}`,
        key: b.key,
      });
      assert.equal(forbidden.statusCode, 403, 'no replay leaks another account’s message');
    });

    it('does not burn the key on a refused send: after a top-up the same key succeeds', async () => {
      const c = await h.customer({ credits: 1 });
      const refused = await send(c, body(c), 'retry-me');
      assert.equal(refused.statusCode, 402, refused.body);
      assert.equal(refused.json().code, 'INSUFFICIENT_CREDITS');
      assert.equal(await messageCount(c), 0);

      await addCredits(h.store, { accountId: c.account.id, amount: 10, nowMs: h.clock.now() });
      const retried = await send(c, body(c), 'retry-me');
      assert.equal(retried.statusCode, 200, retried.body);
      assert.equal(retried.headers['idempotent-replayed'], undefined);
      assert.equal(retried.json().balance, 9);
      const replayed = await send(c, body(c), 'retry-me');
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      assert.equal(replayed.json().uuid, retried.json().uuid);
      assert.equal(await balance(c), 9);

      const invalid = await send(c, { ...body(c), msisdns: ['bad'] }, 'after-400');
      assert.equal(invalid.statusCode, 400, invalid.body);
      const valid = await send(c, body(c), 'after-400');
      assert.equal(valid.statusCode, 200, 'a 400 does not burn the key either');
    });

    it('replays a scheduled send retried after its scheduled time has passed', async () => {
      const c = await h.customer({ credits: 100 });
      const scheduled = {
        ...body(c),
        scheduledTime: new Date(h.clock.now() + 60_000).toISOString(),
      };
      const first = await send(c, scheduled, 'scheduled-retry');
      assert.equal(first.statusCode, 200, first.body);
      h.clock.advance(120_000);
      const retried = await send(c, scheduled, 'scheduled-retry');
      assert.equal(retried.statusCode, 200, retried.body);
      assert.equal(retried.headers['idempotent-replayed'], 'true');
      assert.equal(retried.json().uuid, first.json().uuid);
      assert.equal(await messageCount(c), 1);
      assert.equal(await balance(c), 98);
    });

    it('replays an accepted send even after its sender was suspended', async () => {
      const c = await h.customer({ credits: 100 });
      const first = await send(c, body(c), 'sender-gone');
      assert.equal(first.statusCode, 200, first.body);
      await h.db.database.db
        .updateTable('senders')
        .set({ status: 'suspended' })
        .where('name', '=', c.sender)
        .execute();
      const retried = await send(c, body(c), 'sender-gone');
      assert.equal(retried.statusCode, 200, retried.body);
      assert.equal(retried.json().uuid, first.json().uuid);
      const fresh = await send(c, body(c), 'sender-gone-2');
      assert.equal(fresh.statusCode, 400, 'a new send from a suspended sender is refused');
      assert.equal(fresh.json().code, 'SENDER_NOT_APPROVED');
    });

    it('refuses a malformed Idempotency-Key with 400', async () => {
      const c = await h.customer({ credits: 100 });
      for (const key of ['', 'x'.repeat(256), 'has space', 'ünïcode']) {
        const response = await h.request({
          method: 'POST',
          url: '/api/v2/sms/send',
          key: c.key,
          payload: body(c),
          headers: { 'idempotency-key': key },
        });
        assert.equal(response.statusCode, 400, `${JSON.stringify(key)}: ${response.body}`);
      }
      assert.equal(await messageCount(c), 0);
    });
  });
}
