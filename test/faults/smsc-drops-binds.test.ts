import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startDeliveryRig, eventually, type DeliveryRig } from '../support/delivery-rig.js';
import { whenTold } from '../support/lifecycle-waits.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';
import { msisdns, moneyOf, recipientRows } from './fault-fixtures.js';

const BINDS = 2;
const WINDOW_SIZE = 40;
const DROPS = 3;

/**
 * The SMSC drops every bind while their windows are full of submits awaiting their answer.
 * What Nok guarantees: every recipient is delivered; a part is submitted again only when its
 * submit_sm_resp was lost with the connection (SMPP 3.4 gives an ESME no way to learn whether
 * such a submit was accepted, §2.6), so the parts submitted twice are at most the windows open
 * at the drops (binds × windowSize per drop), and a part whose answer arrived is never sent again.
 */
for (const engine of testEngines()) {
  describe(`the SMSC dropping every bind mid-window (${engine.name})`, () => {
    let h: Harness;
    let customer: Customer;
    let rig: DeliveryRig | undefined;
    before(async () => {
      h = await createHarness(engine);
      customer = await h.customer({ credits: 100_000 });
    });
    afterEach(async () => {
      await rig?.close();
      rig = undefined;
    });
    after(() => h.close());

    it('delivers every recipient, submitting again only parts whose answer was lost', async () => {
      rig = await startDeliveryRig(h, [
        {
          name: 'sim',
          // Answers held 30 ms: each window is full of unanswered submits when the binds drop.
          smsc: { recordSubmits: true, submitResponseDelayMs: 30, receiptDelayMs: 5 },
          settings: { binds: BINDS, windowSize: WINDOW_SIZE, submitsPerSecond: 2_000 },
        },
      ]);
      const smsc = rig.smscs.get('sim')!;
      const count = 1_200;
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Drill',
        msisdns: msisdns(count),
      });
      const messageId = (await h.store.findMessageByUuid(uuid))!.id;
      await rig.materialise();

      for (let drop = 1; drop <= DROPS; drop++) {
        await eventually(
          async () => smsc.stats.partsAccepted >= (drop * count) / (DROPS + 1),
          20_000,
          `submits before drop ${drop}`,
        );
        assert.equal(smsc.dropConnections(), BINDS, `drop ${drop} cut every bind`);
      }

      const summary = await whenTold(
        rig.events,
        async () => {
          const response = await h.request({
            method: 'GET',
            url: `/api/v2/sms/${uuid}/recipients?limit=1`,
            key: customer.key,
          });
          const counts = Object.fromEntries(
            (response.json().summary as { status: string; count: number }[]).map((s) => [
              s.status,
              s.count,
            ]),
          );
          return counts.pending === 0 ? counts : undefined;
        },
        'every recipient to reach a final status',
      );
      assert.equal(summary.success, count, JSON.stringify(summary));
      assert.deepEqual(await recipientRows(h, messageId), { count, distinct: count });

      const submitted = new Map<string, number>();
      for (const s of smsc.stats.submits) {
        submitted.set(s.destinationAddr, (submitted.get(s.destinationAddr) ?? 0) + 1);
      }
      assert.equal(submitted.size, count, 'every recipient reached the SMSC');
      const twice = [...submitted.values()].filter((n) => n > 1).length;
      assert.ok(
        [...submitted.values()].every((n) => n <= 1 + DROPS),
        'a part is sent again at most once per drop',
      );
      assert.ok(
        twice <= DROPS * BINDS * WINDOW_SIZE,
        `${twice} parts sent twice, at most the windows open at the drops`,
      );
      assert.ok(smsc.stats.binds.transceiver + smsc.stats.binds.transmitter > BINDS, 'rebound');

      // Charged once, when the send was accepted; delivery changes no money.
      const money = await moneyOf(h, customer.account.id);
      assert.equal(money.rows.filter((r) => r.message_id === messageId).length, 1);
    });
  });
}
