import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

const LIMIT = 3;
const WINDOW_MS = 60_000;

for (const engine of testEngines()) {
  describe(`rate limit per API key (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { rateLimitRequests: LIMIT });
    });
    after(() => h.close());

    const balance = (key: string) =>
      h.request({ method: 'GET', url: '/api/v2/sms/credit/balance', key });

    it('counts down RateLimit-Remaining and answers 429 RATE_LIMITED with Retry-After past the limit', async () => {
      const c = await h.customer();
      for (let i = 1; i <= LIMIT; i++) {
        const response = await balance(c.key);
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['ratelimit-limit'], String(LIMIT));
        assert.equal(response.headers['ratelimit-remaining'], String(LIMIT - i));
        assert.equal(response.headers['ratelimit-reset'], '60');
      }
      h.clock.advance(15_500);
      const limited = await balance(c.key);
      assert.equal(limited.statusCode, 429, limited.body);
      assert.equal(limited.json().code, 'RATE_LIMITED');
      assert.equal(typeof limited.json().error, 'string');
      assert.equal(limited.headers['retry-after'], '45', 'seconds left in the window, rounded up');
      assert.equal(limited.headers['ratelimit-limit'], String(LIMIT));
      assert.equal(limited.headers['ratelimit-remaining'], '0');
      assert.equal(limited.headers['ratelimit-reset'], '45');
    });

    it('limits every /api/v2 route, and a refused send stores and charges nothing', async () => {
      const c = await h.customer({ credits: 100 });
      for (let i = 0; i < LIMIT; i++) assert.equal((await balance(c.key)).statusCode, 200);
      const send = await h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: c.key,
        payload: { sender: c.sender, content: 'Hi', msisdns: ['0812345678'] },
      });
      assert.equal(send.statusCode, 429, send.body);
      const list = await h.request({ method: 'GET', url: '/api/v2/sms', key: c.key });
      assert.equal(list.statusCode, 429);
      const senders = await h.request({ method: 'GET', url: '/api/v2/senders', key: c.key });
      assert.equal(senders.statusCode, 429);
      assert.equal((await h.store.findAccount(c.account.id))!.balance, 100);
    });

    it('allows requests again once the window has passed', async () => {
      const c = await h.customer();
      for (let i = 0; i < LIMIT; i++) assert.equal((await balance(c.key)).statusCode, 200);
      assert.equal((await balance(c.key)).statusCode, 429);
      h.clock.advance(WINDOW_MS - 1);
      assert.equal((await balance(c.key)).statusCode, 429, 'still inside the window');
      h.clock.advance(1);
      const again = await balance(c.key);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.headers['ratelimit-remaining'], String(LIMIT - 1));
      assert.equal(again.headers['ratelimit-reset'], '60');
    });

    it('counts each API key on its own, even two keys of one account', async () => {
      const c = await h.customer();
      const second = await h.key(c.account.id);
      const other = await h.customer();
      for (let i = 0; i < LIMIT; i++) assert.equal((await balance(c.key)).statusCode, 200);
      assert.equal((await balance(c.key)).statusCode, 429);

      const fromSecond = await balance(second.key);
      assert.equal(
        fromSecond.statusCode,
        200,
        'a second key of the same account has its own window',
      );
      assert.equal(fromSecond.headers['ratelimit-remaining'], String(LIMIT - 1));
      const fromOther = await balance(other.key);
      assert.equal(fromOther.statusCode, 200);
      assert.equal(fromOther.headers['ratelimit-remaining'], String(LIMIT - 1));
    });

    it('does not count requests with a missing or invalid key', async () => {
      const c = await h.customer();
      for (let i = 0; i < LIMIT + 2; i++) {
        const response = await h.request({
          method: 'GET',
          url: '/api/v2/sms/credit/balance',
          key: `${c.key}x`,
        });
        assert.equal(response.statusCode, 401);
      }
      const response = await balance(c.key);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['ratelimit-remaining'], String(LIMIT - 1));
    });

    it("applies the account's own rate_limit_requests instead of the default", async () => {
      const generous = await h.customer();
      const strict = await h.customer();
      await h.db.database.db
        .updateTable('accounts')
        .set({ rate_limit_requests: 5 })
        .where('id', '=', generous.account.id)
        .execute();
      await h.db.database.db
        .updateTable('accounts')
        .set({ rate_limit_requests: 1 })
        .where('id', '=', strict.account.id)
        .execute();

      for (let i = 1; i <= 5; i++) {
        const response = await balance(generous.key);
        assert.equal(response.statusCode, 200, `request ${i}`);
        assert.equal(response.headers['ratelimit-limit'], '5');
        assert.equal(response.headers['ratelimit-remaining'], String(5 - i));
      }
      assert.equal((await balance(generous.key)).statusCode, 429);

      const first = await balance(strict.key);
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['ratelimit-limit'], '1');
      const second = await balance(strict.key);
      assert.equal(second.statusCode, 429);
      assert.equal(second.json().code, 'RATE_LIMITED');
    });
  });
}

const FAILURES = 3;

for (const engine of testEngines()) {
  describe(`failed authentications per client address (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine, { failedAuthenticationLimit: FAILURES });
    });
    after(() => h.close());

    const balance = (key: string | undefined, remoteAddress: string) =>
      h.request({
        method: 'GET',
        url: '/api/v2/sms/credit/balance',
        ...(key === undefined ? {} : { key }),
        remoteAddress,
      });
    /** A well-formed key no account has: only a lookup can tell it is made up. */
    const madeUp = (i: number) => `nok_abcdefgh2345_${String(i).padStart(32, 'x')}`;

    it('answers 429 with Retry-After past the limit, before looking any key up, for that address only', async () => {
      const c = await h.customer();
      const flooder = '198.51.100.7';
      for (let i = 0; i < FAILURES; i++) {
        const response = await balance(i === 0 ? undefined : madeUp(i), flooder);
        assert.equal(response.statusCode, 401, response.body);
      }
      h.clock.advance(20_000);
      const refused = await balance(madeUp(99), flooder);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(refused.json().code, 'RATE_LIMITED');
      assert.equal(refused.headers['retry-after'], '40', 'seconds left in the window, rounded up');
      // Even a valid key is not looked up from that address: the refusal comes first.
      const valid = await balance(c.key, flooder);
      assert.equal(valid.statusCode, 429, valid.body);
      assert.equal(valid.headers['retry-after'], '40');

      // Another address is not concerned, and a valid key's success forgives nothing.
      assert.equal((await balance(c.key, '203.0.113.9')).statusCode, 200);
      assert.equal((await balance(madeUp(5), '203.0.113.9')).statusCode, 401);

      h.clock.advance(40_000);
      assert.equal((await balance(c.key, flooder)).statusCode, 200, 'a new window');
      assert.equal((await balance(madeUp(6), flooder)).statusCode, 401);
    });
  });
}
