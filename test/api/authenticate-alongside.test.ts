import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/domain/accounts/api-key.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

// GET /sms/{uuid} and its recipients read the message while the key is being checked: whatever
// the read finds, a refused key answers 401 and a rate-limited one 429, with nothing read shown.
for (const engine of testEngines()) {
  describe(`reads alongside authentication (${engine.name})`, () => {
    let h: Harness;
    let owner: Customer;
    let uuid: string;
    before(async () => {
      h = await createHarness(engine, { rateLimitRequests: 3 });
      owner = await h.customer();
      ({ uuid } = await h.send(owner, {
        sender: owner.sender,
        content: 'Hi',
        msisdns: ['0810000001'],
      }));
    });
    after(() => h.close());

    for (const path of ['', '/recipients']) {
      it(`answers 401, not 404 or the message, to a well-formed unknown key on /sms/{uuid}${path}`, async () => {
        const unknown = generateApiKey().key;
        for (const id of [uuid, randomUUID()]) {
          const response = await h.request({
            method: 'GET',
            url: `/api/v2/sms/${id}${path}`,
            key: unknown,
          });
          assert.equal(response.statusCode, 401, response.body);
          assert.doesNotMatch(response.body, /Hi|66810000001/);
        }
      });
    }

    it('answers 429 once the key is over its limit, with the rate-limit headers', async () => {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 5; i++) {
        last = await h.request({ method: 'GET', url: `/api/v2/sms/${uuid}`, key: owner.key });
        statuses.push(last.statusCode);
      }
      assert.ok(statuses.includes(200) && statuses.at(-1) === 429, statuses.join(','));
      assert.ok(last!.headers['retry-after']);
      assert.doesNotMatch(last!.body, /Hi/);
    });
  });
}
