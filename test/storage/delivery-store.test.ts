import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  SWEEP_START,
  type DeliveryStore,
  type DispatchChunk,
  type SweepCursor,
} from '../../src/domain/delivery/delivery-store.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

const LEASE_MS = 30_000;

for (const engine of testEngines()) {
  describe(`delivery store (${engine.name})`, () => {
    let h: Harness;
    let customer: Customer;
    let delivery: DeliveryStore;

    before(async () => {
      h = await createHarness(engine);
      customer = await h.customer();
      delivery = h.db.database.delivery;
    });
    after(() => h.close());

    /** Sends, materialises every row and returns the message id and uuid. */
    async function sendAndMaterialise(msisdns: string[], content = 'Hello') {
      const { uuid } = await h.send(customer, { sender: customer.sender, content, msisdns });
      const cache = new CompactListCache();
      while (
        (await materialiseNextChunk(h.store, h.db.database.engine, cache, 1000, h.clock.now())) > 0
      );
      const message = (await h.store.findMessageByUuid(uuid))!;
      return { id: message.id, uuid };
    }

    async function claimAll(owner: string): Promise<DispatchChunk[]> {
      const chunks: DispatchChunk[] = [];
      for (;;) {
        const chunk = await delivery.claimChunk({
          owner,
          nowMs: h.clock.now(),
          leaseMs: LEASE_MS,
          chunkSize: 2,
        });
        if (!chunk) return chunks;
        chunks.push(chunk);
      }
    }

    async function summary(uuid: string) {
      const response = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}/recipients`,
        key: customer.key,
      });
      const body = response.json() as {
        data: { seq: number; status: string }[];
        summary: { status: string; count: number }[];
      };
      return {
        statuses: body.data.map((r) => r.status),
        counts: Object.fromEntries(
          body.summary.filter((s) => s.count > 0).map((s) => [s.status, s.count]),
        ),
      };
    }

    async function messageStatus(uuid: string) {
      const response = await h.request({
        method: 'GET',
        url: `/api/v2/sms/${uuid}`,
        key: customer.key,
      });
      return (response.json() as { status: string }).status;
    }

    it('carves chunks in seq order, skips invalid and blocked recipients, and never leases one twice', async () => {
      await h.store.addToBlocklist(customer.account.id, ['66810000003'], h.clock.now());
      const { id } = await sendAndMaterialise([
        '0810000001',
        '0810000002',
        '0810000003',
        '0810000004',
        'nonsense',
      ]);
      const chunks = (await claimAll('a')).filter((c) => c.messageId === id);
      assert.deepEqual(
        chunks.map((c) => [c.firstSeq, c.lastSeq]),
        [
          [0, 2],
          [2, 4],
          [4, 5],
        ],
      );
      assert.deepEqual(
        chunks.flatMap((c) => c.recipients.map((r) => r.msisdn)),
        ['66810000001', '66810000002', '66810000004'],
      );
      assert.equal((await claimAll('b')).length, 0, 'a leased chunk is not claimed again');
      h.clock.advance(LEASE_MS);
      const retaken = (await claimAll('b')).filter((c) => c.messageId === id);
      assert.equal(retaken.length, 3, 'chunks whose lease ran out are taken over');
      for (const chunk of retaken) await delivery.releaseChunk('b', chunk, h.clock.now());
    });

    it('moves a message to sent once every recipient is accepted, and recipients to their receipts', async () => {
      const { id, uuid } = await sendAndMaterialise(['0820000001', '0820000002', '0820000003']);
      const chunks = (await claimAll('w')).filter((c) => c.messageId === id);
      const recipients = chunks.flatMap((c) => c.recipients);
      await delivery.recordOutcomes(
        recipients.map((r, i) => ({
          kind: 'accepted' as const,
          messageId: id,
          seq: r.seq,
          part: 0,
          carrier: 'c1',
          smscId: `00AB${i}`,
        })),
        h.clock.now(),
      );
      for (const chunk of chunks) await delivery.releaseChunk('w', chunk, h.clock.now());
      assert.equal(await messageStatus(uuid), 'sent');
      assert.deepEqual((await summary(uuid)).counts, { pending: 3 });

      // Ids come back in another case, zero-padded, or in decimal: all are matched.
      await delivery.applyReceipts(
        [
          { carrier: 'c1', smscId: 'ab0', outcome: 'success', error: null },
          { carrier: 'c1', smscId: String(0xab1), outcome: 'failed', error: 'UNDELIV' },
          { carrier: 'c1', smscId: '00ab2', outcome: null, error: null },
        ],
        h.clock.now(),
      );
      assert.deepEqual((await summary(uuid)).statuses, ['success', 'failed', 'pending']);
      await delivery.applyReceipts(
        [{ carrier: 'c1', smscId: 'AB2', outcome: 'expired', error: 'EXPIRED' }],
        h.clock.now(),
      );
      assert.deepEqual((await summary(uuid)).counts, { success: 1, failed: 1, expired: 1 });
    });

    it('delivers a long message only when every part is delivered', async () => {
      const { id, uuid } = await sendAndMaterialise(['0830000001', '0830000002'], 'x'.repeat(140));
      const chunks = (await claimAll('w')).filter((c) => c.messageId === id);
      assert.equal(chunks[0]!.parts, 3);
      const outcomes = chunks.flatMap((c) =>
        c.recipients.flatMap((r) =>
          [0, 1, 2].map((part) => ({
            kind: 'accepted' as const,
            messageId: id,
            seq: r.seq,
            part,
            carrier: 'c1',
            smscId: `lm-${r.seq}-${part}`,
          })),
        ),
      );
      await delivery.recordOutcomes(outcomes, h.clock.now());
      const receipt = (seq: number, part: number, outcome: 'success' | 'failed') => ({
        carrier: 'c1',
        smscId: `lm-${seq}-${part}`,
        outcome,
        error: null,
      });
      await delivery.applyReceipts(
        [receipt(1, 0, 'success'), receipt(1, 1, 'success')],
        h.clock.now(),
      );
      assert.deepEqual((await summary(uuid)).statuses, ['pending', 'pending']);
      await delivery.applyReceipts(
        [receipt(1, 2, 'success'), receipt(2, 0, 'success'), receipt(2, 1, 'failed')],
        h.clock.now(),
      );
      assert.deepEqual((await summary(uuid)).statuses, ['success', 'failed']);
      // The last part's receipt comes after the recipient is final: nothing changes.
      await delivery.applyReceipts([receipt(2, 2, 'success')], h.clock.now());
      assert.deepEqual((await summary(uuid)).counts, { success: 1, failed: 1 });
    });

    it('keeps a receipt that comes before its submission and matches it later', async () => {
      const { id, uuid } = await sendAndMaterialise(['0840000001']);
      const [chunk] = (await claimAll('w')).filter((c) => c.messageId === id);
      await delivery.applyReceipts(
        [{ carrier: 'c1', smscId: 'early-1', outcome: 'success', error: null }],
        h.clock.now(),
      );
      await delivery.recordOutcomes(
        [{ kind: 'accepted', messageId: id, seq: 1, part: 0, carrier: 'c1', smscId: 'EARLY-1' }],
        h.clock.now(),
      );
      assert.deepEqual((await summary(uuid)).statuses, ['pending']);
      await delivery.sweep({
        nowMs: h.clock.now(),
        receiptWindowsMs: new Map(),
        defaultReceiptWindowMs: 60_000,
        orphanMaxAgeMs: 60_000,
      });
      assert.deepEqual((await summary(uuid)).statuses, ['success']);
      await delivery.releaseChunk('w', chunk!, h.clock.now());
    });

    /** One sweep round in batches of `batchSize`, as the dispatcher runs it; returns its calls. */
    async function sweepRound(
      batchSize: number,
      receiptWindowsMs: ReadonlyMap<string, number> = new Map(),
    ): Promise<{ calls: number; timedOut: number }> {
      let calls = 0;
      let timedOut = 0;
      for (let from: SweepCursor | null = SWEEP_START; from !== null; calls++) {
        assert.ok(calls < 20, 'a sweep round ends');
        const result = await delivery.sweep({
          nowMs: h.clock.now(),
          receiptWindowsMs,
          defaultReceiptWindowMs: 60_000,
          orphanMaxAgeMs: 60_000,
          from,
          batchSize,
        });
        timedOut += result.timedOut;
        from = result.next;
      }
      return { calls, timedOut };
    }

    it("matches a late submission's receipt behind full batches of orphans nothing will match", async () => {
      // Receipts for parts whose submission never got stored (a dispatcher killed between the
      // submit_sm_resp and its commit; the part was sent again) stay orphans until they are old.
      await delivery.applyReceipts(
        Array.from({ length: 7 }, (_, i) => ({
          carrier: 'c1',
          smscId: `never-${i}`,
          outcome: 'success' as const,
          error: null,
        })),
        h.clock.now(),
      );
      h.clock.advance(1);
      const { id, uuid } = await sendAndMaterialise(['0841000001']);
      const [chunk] = (await claimAll('w')).filter((c) => c.messageId === id);
      await delivery.applyReceipts(
        [{ carrier: 'c1', smscId: 'late-1', outcome: 'success', error: null }],
        h.clock.now(),
      );
      await delivery.recordOutcomes(
        [{ kind: 'accepted', messageId: id, seq: 1, part: 0, carrier: 'c1', smscId: 'late-1' }],
        h.clock.now(),
      );
      const round = await sweepRound(3);
      assert.deepEqual((await summary(uuid)).statuses, ['success']);
      assert.equal(round.calls, 3, 'each orphan is read once: 3 + 3 + 2');
      await delivery.releaseChunk('w', chunk!, h.clock.now());
      h.clock.advance(60_001);
      await sweepRound(3);
      assert.deepEqual(
        (await sweepRound(3)).calls,
        1,
        'orphans past their age are dropped: nothing is left to read',
      );
    });

    it("times out a carrier's overdue part behind full batches of another carrier's parts still in their window", async () => {
      const { id, uuid } = await sendAndMaterialise([
        '0851000001',
        '0851000002',
        '0851000003',
        '0851000004',
        '0851000005',
      ]);
      const chunks = (await claimAll('w')).filter((c) => c.messageId === id);
      // Four parts through a carrier with a long window, then one through a short one.
      await delivery.recordOutcomes(
        [1, 2, 3, 4].map((seq) => ({
          kind: 'accepted' as const,
          messageId: id,
          seq,
          part: 0,
          carrier: 'slow',
          smscId: `slow-${seq}`,
        })),
        h.clock.now(),
      );
      h.clock.advance(1);
      await delivery.recordOutcomes(
        [{ kind: 'accepted', messageId: id, seq: 5, part: 0, carrier: 'fast', smscId: 'fast-5' }],
        h.clock.now(),
      );
      h.clock.advance(10_000);
      const windows = new Map([
        ['fast', 5_000],
        ['slow', 50_000],
      ]);
      const round = await sweepRound(2, windows);
      assert.equal(round.timedOut, 1);
      assert.equal(round.calls, 3, 'each candidate is read once: 2 + 2 + 1');
      assert.deepEqual((await summary(uuid)).statuses, [
        'pending',
        'pending',
        'pending',
        'pending',
        'timeout',
      ]);
      h.clock.advance(50_000);
      assert.equal((await sweepRound(2, windows)).timedOut, 4);
      for (const chunk of chunks) await delivery.releaseChunk('w', chunk, h.clock.now());
    });

    it('gives timeout to a recipient whose receipt does not come within the window', async () => {
      const { id, uuid } = await sendAndMaterialise(['0850000001', '0850000002']);
      const chunks = (await claimAll('w')).filter((c) => c.messageId === id);
      await delivery.recordOutcomes(
        [1, 2].map((seq) => ({
          kind: 'accepted' as const,
          messageId: id,
          seq,
          part: 0,
          carrier: 'c1',
          smscId: `to-${seq}`,
        })),
        h.clock.now(),
      );
      h.clock.advance(10_000);
      await delivery.applyReceipts(
        [{ carrier: 'c1', smscId: 'to-2', outcome: 'success', error: null }],
        h.clock.now(),
      );
      const { timedOut } = await delivery.sweep({
        nowMs: h.clock.now(),
        receiptWindowsMs: new Map([['c1', 5_000]]),
        defaultReceiptWindowMs: 60_000,
        orphanMaxAgeMs: 60_000,
      });
      assert.equal(timedOut, 1);
      assert.deepEqual((await summary(uuid)).statuses, ['timeout', 'success']);
      for (const chunk of chunks) await delivery.releaseChunk('w', chunk, h.clock.now());
    });

    it('holds back retried recipients until due, and fails a message none of whose parts was accepted', async () => {
      const { id, uuid } = await sendAndMaterialise(['0860000001', '0860000002']);
      const [chunk] = (await claimAll('w')).filter((c) => c.messageId === id);
      await delivery.recordOutcomes(
        [
          {
            kind: 'retry',
            messageId: id,
            seq: 1,
            nextAttemptAt: h.clock.now() + 5_000,
            error: 'throttled',
          },
          { kind: 'final', messageId: id, seq: 2, status: 'invalid', error: 'ESME_RINVDSTADR' },
        ],
        h.clock.now(),
      );
      await delivery.releaseChunk('w', chunk!, h.clock.now());
      assert.equal(await messageStatus(uuid), 'pending');
      assert.equal((await claimAll('w')).filter((c) => c.messageId === id).length, 0);
      h.clock.advance(5_000);
      const [again] = (await claimAll('w')).filter((c) => c.messageId === id);
      assert.deepEqual(
        again!.recipients.map((r) => [r.seq, r.firstAttemptAt]),
        [[1, h.clock.now() - 5_000]],
      );
      await delivery.recordOutcomes(
        [{ kind: 'final', messageId: id, seq: 1, status: 'expired', error: 'retry window over' }],
        h.clock.now(),
      );
      await delivery.releaseChunk('w', again!, h.clock.now());
      assert.equal(await messageStatus(uuid), 'failed');
      assert.deepEqual((await summary(uuid)).counts, { invalid: 1, expired: 1 });
    });
  });
}
