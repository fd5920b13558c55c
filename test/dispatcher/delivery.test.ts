import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { resolveSmscOptions } from '../../src/smsc/smsc-options.js';
import { receiptFate } from '../../src/smsc/receipt-fate.js';
import { startDeliveryRig, eventually, type DeliveryRig } from '../support/delivery-rig.js';
import { testEngines } from '../support/engines.js';
import { whenTold } from '../support/lifecycle-waits.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

interface Recipients {
  data: { seq: number; msisdn: string; status: string }[];
  summary: { status: string; count: number }[];
  nextCursor: number;
  hasMore: boolean;
}

const STATUS_OF_FATE: Record<string, string> = {
  DELIVRD: 'success',
  UNDELIV: 'failed',
  REJECTD: 'failed',
  EXPIRED: 'expired',
};

function numbers(count: number, first: number): string[] {
  return Array.from({ length: count }, (_, i) => `0${first + i}`);
}

for (const engine of testEngines()) {
  describe(`delivery end to end (${engine.name})`, () => {
    let h: Harness;
    let customer: Customer;
    let rig: DeliveryRig | undefined;

    before(async () => {
      h = await createHarness(engine);
      customer = await h.customer({ credits: 10_000_000 });
    });
    afterEach(async () => {
      await rig?.close();
      rig = undefined;
    });
    after(() => h.close());

    async function allRecipients(uuid: string) {
      const rows: Recipients['data'] = [];
      let after = 0;
      let summary: Recipients['summary'] = [];
      for (;;) {
        const response = await h.request({
          method: 'GET',
          url: `/api/v2/sms/${uuid}/recipients?after=${after}`,
          key: customer.key,
        });
        const page = response.json() as Recipients;
        rows.push(...page.data);
        summary = page.summary;
        if (!page.hasMore) break;
        after = page.nextCursor;
      }
      return { rows, summary: Object.fromEntries(summary.map((s) => [s.status, s.count])) };
    }

    /** Per-status totals alone: one request, however many recipients. */
    async function summaryOf(uuid: string) {
      const response = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}/recipients?limit=1`,
        key: customer.key,
      });
      const page = response.json() as Recipients;
      return Object.fromEntries(page.summary.map((s) => [s.status, s.count]));
    }

    async function message(uuid: string) {
      const response = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}`,
        key: customer.key,
      });
      return response.json() as { status: string; drSummary?: Record<string, number> };
    }

    /** Whether the message's last chunk was released (`sent` or `failed`): one row, read alone. */
    async function finished(uuid: string) {
      const { status } = (await h.store.findMessageByUuid(uuid))!;
      return status === 'sent' || status === 'failed';
    }

    /**
     * Sends, then waits until the message is finished and none of its recipients is pending. The
     * per-status counts are read only once the message is finished: on a large send, counting
     * them after every event of its delivery would take much of the time the delivery has.
     */
    async function sendAndSettle(payload: Record<string, unknown>, timeoutMs = 30_000) {
      const { uuid } = await h.send(customer, { sender: customer.sender, ...payload });
      await rig!.materialise();
      await whenTold(
        rig!.events,
        async () => (await finished(uuid)) && (await summaryOf(uuid)).pending === 0,
        'the message to finish and every recipient to reach a final status',
        timeoutMs,
      );
      return uuid;
    }

    it('gives 1,000 recipients the status the SMSC decided for each, and says sent', async () => {
      const smsc = {
        deliveredRatio: 0.85,
        failedRatio: 0.05,
        expiredRatio: 0.03,
        rejectedRatio: 0.03,
        noReceiptRatio: 0.04,
        receiptDelayMs: { min: 0, max: 50 },
      };
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc }], { receiptWindowMs: 1_500 });
      const uuid = await sendAndSettle({ content: 'Hello', msisdns: numbers(1000, 810000000) });
      const { rows, summary } = await allRecipients(uuid);
      const { fates, seed } = resolveSmscOptions({ seed: 7, ...smsc });
      const counts: Record<string, number> = {};
      for (const row of rows) {
        const fate = receiptFate(row.msisdn, seed, fates);
        const expected = fate === null ? 'timeout' : STATUS_OF_FATE[fate]!;
        assert.equal(row.status, expected, `recipient ${row.msisdn}`);
        counts[expected] = (counts[expected] ?? 0) + 1;
      }
      assert.deepEqual(summary, {
        pending: 0,
        success: counts.success,
        failed: counts.failed,
        invalid: 0,
        blocked: 0,
        expired: counts.expired,
        timeout: counts.timeout,
      });
      const details = await message(uuid);
      assert.equal(details.status, 'sent');
      assert.deepEqual(details.drSummary, summary);
      assert.ok(counts.success! > 800 && counts.timeout! > 10, JSON.stringify(counts));
    });

    it('tells of each chunk claimed, each outcome stored and the message complete, once committed', async () => {
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: {} }]);
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Hi',
        msisdns: numbers(250, 930000000),
      });
      const { id, accountId } = (await h.store.findMessageByUuid(uuid))!;
      const claimed = new Set<string>();
      const stored = new Set<number>();
      let readAtComplete: Promise<{ status: string }> | undefined;
      rig.events.on('chunkClaimed', (c) => {
        if (c.messageId === id) claimed.add(`${c.firstSeq}-${c.lastSeq}`);
      });
      rig.events.on('outcomesStored', ({ outcomes }) => {
        for (const o of outcomes) if (o.messageId === id) stored.add(o.seq);
      });
      // A read started as the event comes sees what it tells: it comes after the commit.
      rig.events.on('messageComplete', (m) => {
        if (m.messageId === id) readAtComplete ??= message(uuid);
      });
      const complete = rig.events.once('messageComplete', (m) => m.messageId === id);
      await rig.materialise();
      assert.deepEqual(await complete, { messageId: id, accountId, status: 'sent' });
      assert.equal((await readAtComplete!).status, 'sent');
      // A chunk is claimed again while its parts wait for a retry (the binds are still opening).
      assert.deepEqual([...claimed].sort(), ['0-100', '100-200', '200-250']);
      assert.equal(stored.size, 250, 'an outcome of every recipient was told');
    });

    it('sends a long Thai message as UCS-2 parts with one UDH reference, successful only when every part is delivered', async () => {
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: { recordSubmits: true } }]);
      const content = 'สวัสดีครับ'.repeat(14).slice(0, 135);
      const uuid = await sendAndSettle({ content, msisdns: numbers(3, 820000000) });
      const submits = rig.smscs.get('sim')!.stats.submits;
      assert.equal(submits.length, 9);
      for (const submit of submits) {
        assert.equal(submit.dataCoding, 8);
        assert.equal(submit.esmClass & 0x40, 0x40);
        assert.equal(submit.udh?.total, 3);
        assert.equal(submit.sourceAddr, customer.sender);
        assert.equal(submit.registeredDelivery & 0x01, 1);
      }
      assert.equal(new Set(submits.map((s) => s.udh!.reference)).size, 1);
      const byNumber = new Map<string, string>();
      for (const s of [...submits].sort((a, b) => a.udh!.seq - b.udh!.seq))
        byNumber.set(s.destinationAddr, (byNumber.get(s.destinationAddr) ?? '') + s.text);
      for (const text of byNumber.values()) assert.equal(text, content);
      assert.deepEqual((await allRecipients(uuid)).summary.success, 3);
    });

    it('marks destinations the carrier refuses as invalid', async () => {
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: { invalidPrefixes: ['66830'] } }]);
      const uuid = await sendAndSettle({
        content: 'Hi',
        msisdns: ['0830000001', '0831000001', '0830000002'],
      });
      assert.deepEqual(
        (await allRecipients(uuid)).rows.map((r) => r.status),
        ['invalid', 'success', 'invalid'],
      );
    });

    it('slows down when throttled and still delivers every recipient', async () => {
      // A rate a loaded machine still exceeds: the SMSC must have something to throttle.
      rig = await startDeliveryRig(h, [
        { name: 'sim', smsc: { throttleAboveSubmitsPerSecond: 80 } },
      ]);
      const uuid = await sendAndSettle({ content: 'Hi', msisdns: numbers(400, 840000000) });
      assert.equal((await allRecipients(uuid)).summary.success, 400);
      assert.ok(rig.smscs.get('sim')!.stats.submitsThrottled > 0, 'the SMSC throttled');
    });

    it('matches receipts that arrive before their submit_sm_resp', async () => {
      rig = await startDeliveryRig(h, [
        { name: 'sim', smsc: { receiptBeforeResponse: true, receiptRetryIntervalMs: 200 } },
      ]);
      const uuid = await sendAndSettle({ content: 'Hi', msisdns: numbers(200, 850000000) });
      assert.equal((await allRecipients(uuid)).summary.success, 200);
    });

    it('recovers from dropped connections without losing a recipient', async () => {
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: { dropConnectionAfterSubmits: 150 } }]);
      const uuid = await sendAndSettle({ content: 'Hi', msisdns: numbers(500, 860000000) });
      assert.equal((await allRecipients(uuid)).summary.success, 500);
      assert.ok(rig.smscs.get('sim')!.stats.submitsDropped > 0, 'connections were dropped');
    });

    it('fails over to the next carrier when the first cannot be reached', async () => {
      rig = await startDeliveryRig(h, [
        { name: 'down', smsc: null, settings: { routing: { prefixes: [], priority: 0 } } },
        { name: 'backup', smsc: {}, settings: { routing: { prefixes: [], priority: 1 } } },
      ]);
      const uuid = await sendAndSettle({ content: 'Hi', msisdns: numbers(50, 870000000) });
      assert.equal((await allRecipients(uuid)).summary.success, 50);
      assert.equal(rig.smscs.get('backup')!.stats.partsAccepted, 50);
    });

    it('expires recipients when no carrier can take them within the retry window', async () => {
      rig = await startDeliveryRig(h, [{ name: 'down', smsc: null }], { retryWindowMs: 300 });
      const uuid = await sendAndSettle({ content: 'Hi', msisdns: numbers(5, 880000000) });
      assert.equal((await allRecipients(uuid)).summary.expired, 5);
      // The message is finished when its chunk is released, a transaction after the recipients'
      // last outcomes: on a busy machine the wait above can come between the two.
      await whenTold(
        rig.events,
        async () => (await message(uuid)).status === 'failed',
        'the message to be failed',
      );
    });

    it('binds once a refusing SMSC starts accepting', async () => {
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: { refuseBinds: true } }]);
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Hi',
        msisdns: numbers(20, 890000000),
      });
      await rig.materialise();
      const refusing = rig.smscs.get('sim')!;
      await eventually(async () => refusing.stats.bindsRefused >= 2, 5_000, 'refused binds');
      await rig.restartSmsc('sim', {});
      await whenTold(
        rig.events,
        async () => (await summaryOf(uuid)).success === 20,
        'delivery after the binds are accepted',
      );
    });

    it('shares one send between two dispatchers with no recipient submitted twice', async () => {
      rig = await startDeliveryRig(h, [{ name: 'sim', smsc: { recordSubmits: true } }], {
        dispatchers: 2,
      });
      // The figure on PostgreSQL, where several dispatcher processes share the work.
      const count = engine.name === 'postgres' ? 100_000 : 5_000;
      const uuid = await sendAndSettle(
        { content: 'Hi', msisdns: numbers(count, 900000000) },
        240_000,
      );
      assert.equal((await summaryOf(uuid)).success, count);
      const destinations = rig.smscs.get('sim')!.stats.submits.map((s) => s.destinationAddr);
      assert.equal(destinations.length, count, 'parts accepted by the SMSC');
      assert.equal(new Set(destinations).size, count, 'distinct destinations');
      const [first, second] = rig.dispatchers.map((d) => d.stats().submitted);
      assert.ok(first! > 0 && second! > 0, `both dispatchers submitted (${first}, ${second})`);
    });

    it('delivers a one-number send while a large send is still being dispatched', async () => {
      rig = await startDeliveryRig(h, [
        { name: 'sim', smsc: {}, settings: { submitsPerSecond: 500 } },
      ]);
      const { uuid: large } = await h.send(customer, {
        sender: customer.sender,
        content: 'Campaign',
        msisdns: numbers(3000, 910000000),
      });
      await rig.materialise();
      await whenTold(
        rig.events,
        async () => (await summaryOf(large)).success! > 0,
        'the campaign to start',
      );
      const { uuid: small } = await h.send(customer, {
        sender: customer.sender,
        content: 'Your code is 1234',
        msisdns: ['0920000001'],
      });
      await rig.materialise();
      await whenTold(
        rig.events,
        async () => (await message(small)).drSummary?.success === 1,
        'the one-number send',
      );
      const campaign = await summaryOf(large);
      assert.ok(
        campaign.pending! > 1000,
        `the campaign still had ${campaign.pending} recipients pending`,
      );
    });
  });
}
