import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/domain/store.js';
import { releaseDueMessages } from '../../src/scheduler/release-due-messages.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { createStore } from '../../src/storage/store.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import { fromLedger } from '../../src/storage/from-ledger.js';

const HOUR_MS = 3_600_000;
const TURNS_BETWEEN_CANCELS = 2;
const RELEASE_TURNS = [12, 24];

for (const engine of testEngines()) {
  describe(`cancel (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    async function send(c: Customer, options: { scheduledInMs?: number; msisdns?: string[] } = {}) {
      const payload = {
        sender: c.sender,
        content: 'Hello',
        msisdns: options.msisdns ?? ['0812345678', '0812345679', '0812345670'],
        ...(options.scheduledInMs !== undefined
          ? { scheduledTime: new Date(h.clock.now() + options.scheduledInMs).toISOString() }
          : {}),
      };
      return (await h.send(c, payload)) as {
        uuid: string;
        status: string;
        cost: number;
        balance: number;
      };
    }

    const cancel = (c: { key: string }, uuid: string) =>
      h.request({ method: 'POST', url: `/api/v2/sms/${uuid}/cancel`, key: c.key });

    async function status(c: Customer, uuid: string): Promise<string> {
      const response = await h.request({ method: 'GET', url: `/api/v2/sms/${uuid}`, key: c.key });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().status;
    }

    async function balance(c: Customer): Promise<number> {
      const response = await h.request({
        method: 'GET',
        url: '/api/v2/sms/credit/balance',
        key: c.key,
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().balance;
    }

    function ledger(accountId: number) {
      return fromLedger(h.db.database.db)
        .select(['delta', 'reason', 'message_id'])
        .where('account_id', '=', accountId)
        .orderBy('id')
        .execute();
    }

    /**
     * The scheduler's own connection, as a scheduler process would have: on PostgreSQL a second
     * pool, so a release never queues behind the API's queries in one pool. SQLite runs the
     * scheduler in the API's process, on its one connection.
     */
    function schedulerStore(): { store: Store; close(): Promise<void> } {
      if (h.db.schema === undefined) return { store: h.store, close: async () => undefined };
      const database = openDatabase(h.db.url, { schema: h.db.schema });
      return { store: createStore(database.db), close: () => database.close() };
    }

    async function messageId(uuid: string): Promise<number> {
      const message = await h.store.findMessageByUuid(uuid);
      assert.ok(message, `message ${uuid} exists`);
      return message.id;
    }

    it('refunds held credits when a scheduled message is cancelled', async () => {
      const c = await h.customer({ credits: 100 });
      const sent = await send(c, { scheduledInMs: HOUR_MS });
      assert.equal(sent.status, 'scheduled');
      assert.equal(sent.cost, 3);
      assert.equal(await balance(c), 97);

      const response = await cancel(c, sent.uuid);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { uuid: sent.uuid, status: 'cancelled', refunded: 3 });
      assert.equal(await balance(c), 100);
      assert.equal(await status(c, sent.uuid), 'cancelled');

      const id = await messageId(sent.uuid);
      const rows = (await ledger(c.account.id)).filter((row) => row.message_id === id);
      assert.deepEqual(
        rows.map((row) => [row.reason, Number(row.delta)]),
        [
          ['hold', -3],
          ['refund', 3],
        ],
      );
      assert.equal(await h.store.ledgerSum(c.account.id), 100);
    });

    it('answers 409 ALREADY_CANCELLED when a cancelled message is cancelled again, refunding nothing more', async () => {
      const c = await h.customer({ credits: 100 });
      const sent = await send(c, { scheduledInMs: HOUR_MS });
      assert.equal((await cancel(c, sent.uuid)).statusCode, 200);

      const again = await cancel(c, sent.uuid);
      assert.equal(again.statusCode, 409, again.body);
      assert.equal(again.json().code, 'ALREADY_CANCELLED');
      assert.equal(typeof again.json().error, 'string');
      assert.equal(await balance(c), 100);
      const refunds = (await ledger(c.account.id)).filter((row) => row.reason === 'refund');
      assert.equal(refunds.length, 1);
    });

    it('answers 400 NOT_SCHEDULED when the message was sent at once, refunding nothing', async () => {
      const c = await h.customer({ credits: 100 });
      const sent = await send(c);
      assert.equal(sent.status, 'pending');

      const response = await cancel(c, sent.uuid);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'NOT_SCHEDULED');
      assert.equal(await balance(c), 97);
      assert.equal(await status(c, sent.uuid), 'pending');
      assert.deepEqual(
        (await ledger(c.account.id)).map((row) => row.reason),
        ['top-up', 'send'],
      );
    });

    it('answers 409 ALREADY_PROCESSING once the scheduler has released the message, refunding nothing', async () => {
      const c = await h.customer({ credits: 100 });
      const sent = await send(c, { scheduledInMs: HOUR_MS });

      assert.deepEqual(
        await releaseDueMessages(h.store, h.clock.now()),
        [],
        'nothing is due before its time',
      );
      h.clock.advance(HOUR_MS + 1);
      const released = await releaseDueMessages(h.store, h.clock.now());
      assert.ok(released.includes(await messageId(sent.uuid)));
      assert.equal(await status(c, sent.uuid), 'pending');

      const response = await cancel(c, sent.uuid);
      assert.equal(response.statusCode, 409, response.body);
      assert.equal(response.json().code, 'ALREADY_PROCESSING');
      assert.equal(await status(c, sent.uuid), 'pending');
      assert.equal(await balance(c), 97);
      assert.deepEqual(
        (await ledger(c.account.id)).map((row) => row.reason),
        ['top-up', 'hold'],
      );
    });

    it("answers 403 on another account's message and changes nothing", async () => {
      const owner = await h.customer({ credits: 100 });
      const other = await h.customer({ credits: 100 });
      const sent = await send(owner, { scheduledInMs: HOUR_MS });

      const response = await cancel(other, sent.uuid);
      assert.equal(response.statusCode, 403, response.body);
      assert.equal(response.json().code, 'FORBIDDEN');
      assert.equal(await status(owner, sent.uuid), 'scheduled');
      assert.equal(await balance(owner), 97);
      assert.equal(await balance(other), 100);
    });

    it('cancels when the client sends Content-Type: application/json with an empty body', async () => {
      const c = await h.customer();
      const sent = await send(c, { scheduledInMs: HOUR_MS });
      const response = await h.request({
        method: 'POST',
        url: `/api/v2/sms/${sent.uuid}/cancel`,
        key: c.key,
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(await status(c, sent.uuid), 'cancelled');
    });

    it('answers 400 INVALID_JSON to a malformed JSON body on cancel, cancelling nothing', async () => {
      const c = await h.customer();
      const sent = await send(c, { scheduledInMs: HOUR_MS });
      const response = await h.request({
        method: 'POST',
        url: `/api/v2/sms/${sent.uuid}/cancel`,
        key: c.key,
        headers: { 'content-type': 'application/json' },
        payload: '{"oops"',
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json(), {
        error: 'The body is not valid JSON',
        code: 'INVALID_JSON',
        requestId: response.headers['x-request-id'],
      });
      assert.equal(await status(c, sent.uuid), 'scheduled');
    });

    it('answers 404 on an unknown message', async () => {
      const c = await h.customer({ credits: 100 });
      const response = await cancel(c, '00000000-0000-4000-8000-000000000000');
      assert.equal(response.statusCode, 404, response.body);
      assert.equal(response.json().code, 'NOT_FOUND');
    });

    it('lets exactly one of cancel and the scheduler win for every message when they race', async (t) => {
      const count = 20;
      const c = await h.customer({ credits: 1000 });
      const sent = [];
      for (let i = 0; i < count; i++)
        sent.push(await send(c, { scheduledInMs: HOUR_MS, msisdns: ['0812345678'] }));
      assert.equal(await balance(c), 1000 - count);
      h.clock.advance(HOUR_MS + 1);
      const now = h.clock.now();
      const scheduler = schedulerStore();
      assert.deepEqual(
        await releaseDueMessages(scheduler.store, 0),
        [],
        'connects; nothing is due at 0',
      );

      // Cancel i starts after i event-loop turns and the releases part-way through, so the
      // early cancels tend to win, the late ones tend to lose, and the middle ones race.
      const turns = async (n: number) => {
        for (let i = 0; i < n; i++) await nextTurn();
      };
      const cancelling = sent.map(async (m, i) => {
        await turns(i * TURNS_BETWEEN_CANCELS);
        return cancel(c, m.uuid);
      });
      const releases = RELEASE_TURNS.map(async (n) => {
        await turns(n);
        return releaseDueMessages(scheduler.store, now);
      });
      const [cancels, released] = await Promise.all([
        Promise.all(cancelling),
        Promise.all(releases),
      ]);
      await scheduler.close();
      const releasedIds = new Set(released.flat());
      assert.equal(releasedIds.size, released.flat().length, 'no message is released twice');

      const ledgerRows = await ledger(c.account.id);
      let cancelled = 0;
      for (const [i, m] of sent.entries()) {
        const id = await messageId(m.uuid);
        const response = cancels[i]!;
        const refunds = ledgerRows.filter(
          (row) => row.reason === 'refund' && row.message_id === id,
        );
        const final = await status(c, m.uuid);
        if (response.statusCode === 200) {
          cancelled++;
          assert.equal(final, 'cancelled');
          assert.equal(refunds.length, 1, `message ${i} refunded once`);
          assert.ok(!releasedIds.has(id), `message ${i} cancelled and released`);
        } else {
          assert.equal(response.statusCode, 409, response.body);
          assert.equal(response.json().code, 'ALREADY_PROCESSING');
          assert.equal(final, 'pending');
          assert.equal(refunds.length, 0, `message ${i} released but refunded`);
          assert.ok(releasedIds.has(id), `message ${i} pending but not released by this run`);
        }
      }
      t.diagnostic(`${cancelled} of ${count} cancelled, ${count - cancelled} released`);
      const expected = 1000 - count + cancelled;
      assert.equal(await balance(c), expected);
      assert.equal(await h.store.ledgerSum(c.account.id), expected);
    });
  });
}
