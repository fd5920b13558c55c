import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

for (const engine of testEngines()) {
  describe(`send and read back (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('accepts a send, charges it, and lists its recipients', async () => {
      const c = await h.customer({ credits: 100 });
      const sent = await h.request({
        method: 'POST',
        url: '/api/v2/sms/send',
        key: c.key,
        payload: {
          sender: c.sender,
          content: 'Hello',
          msisdns: ['0812345678', '66812345678', '66900000001', 'bad'],
        },
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const body = sent.json();
      assert.equal(body.recipients.charged, 2);
      assert.equal(body.recipients.duplicates, 1);
      assert.equal(body.recipients.invalid, 1);
      assert.equal(body.cost, 2);
      assert.equal(body.balance, 98);

      const recipients = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${body.uuid}/recipients`,
        key: c.key,
      });
      assert.equal(recipients.statusCode, 200, recipients.body);
      const page = recipients.json();
      assert.equal(page.total, 3);
      assert.deepEqual(
        page.data.map((r: { msisdn: string; status: string }) => [r.msisdn, r.status]),
        [
          ['66812345678', 'pending'],
          ['66900000001', 'pending'],
          ['bad', 'invalid'],
        ],
      );
      const one = await h.request({ method: 'GET', url: `/api/v2/sms/${body.uuid}`, key: c.key });
      assert.equal(one.json().status, 'pending');
    });
  });
}
