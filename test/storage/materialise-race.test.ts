import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

for (const engine of testEngines()) {
  describe(`materialisers racing on one chunk (${engine.name})`, () => {
    let h: Harness;
    before(async () => {
      h = await createHarness(engine);
    });
    after(() => h.close());

    it('lets exactly one of two writers of the same range write it', async () => {
      const customer = await h.customer();
      const msisdns = Array.from({ length: 300 }, (_, i) => `0810${String(i).padStart(6, '0')}`);
      const { uuid } = await h.send(customer, { sender: customer.sender, content: 'x', msisdns });
      const message = (await h.store.findMessageByUuid(uuid))!;
      const rows = msisdns.map((_, i) => ({ seq: i + 1, msisdn: `66${i}`, status: 'pending' }));
      const { engine: ops } = h.db.database;
      const results = await Promise.all([
        ops.insertRecipientChunk(message.id, 0, 300, rows, h.clock.now()),
        ops.insertRecipientChunk(message.id, 0, 300, rows, h.clock.now()),
      ]);
      assert.deepEqual(results.sort(), [false, true]);
      const { rows: counted } = await sql<{ n: number }>`
        select count(*) as n from recipients where message_id = ${message.id}`.execute(
        h.db.database.db,
      );
      assert.equal(Number(counted[0]!.n), 300);
      assert.equal((await h.store.findMessageByUuid(uuid))!.materialisedUpto, 300);
    });
  });
}
