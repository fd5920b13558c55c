import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DeliveryStore, ReceiptReport } from '../../src/domain/delivery/delivery-store.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Customer, type Harness } from '../support/harness.js';

/**
 * Fixed examples of the one delivery fold (ADR 0020 and 0045, src/storage/delivery-fold.ts),
 * through each engine's real delivery store: several parts of one recipient in one receipt
 * batch, and the largest messages a part mask holds, delivered part by part.
 */
for (const engine of testEngines()) {
  describe(`the delivery fold through the store (${engine.name})`, () => {
    let h: Harness;
    let customer: Customer;
    let delivery: DeliveryStore;
    let n = 0;

    before(async () => {
      h = await createHarness(engine);
      customer = await h.customer({ credits: 1_000_000 });
      delivery = h.db.database.delivery;
    });
    after(() => h.close());

    /**
     * A message of `parts` parts to `recipients` numbers, its rows materialised and every part
     * of every recipient accepted by carrier c1 as `<tag>-<seq>-<part>`. A send stores at most
     * 31 parts (1,000 characters); a larger `parts` is written to the message row, which is
     * where the store reads it from, as for a message the mask must still hold.
     */
    async function accepted(tag: string, parts: number, recipients: number, content = 'Hi') {
      n += 1;
      const msisdns = Array.from(
        { length: recipients },
        (_, i) => `08${n}${String(i).padStart(7, '0')}`,
      );
      const { uuid } = await h.send(customer, { sender: customer.sender, content, msisdns });
      const message = (await h.store.findMessageByUuid(uuid))!;
      if (message.parts !== parts) {
        await sql`UPDATE messages SET parts = ${parts} WHERE id = ${message.id}`.execute(
          h.db.database.db,
        );
      }
      const cache = new CompactListCache();
      while (
        (await materialiseNextChunk(h.store, h.db.database.engine, cache, 1000, h.clock.now())) > 0
      );
      const chunks = [];
      for (;;) {
        const chunk = await delivery.claimChunk({
          owner: 'w',
          nowMs: h.clock.now(),
          leaseMs: 30_000,
          chunkSize: 100,
        });
        if (!chunk) break;
        chunks.push(chunk);
      }
      const mine = chunks.filter((c) => c.messageId === message.id);
      assert.equal(mine[0]!.parts, parts);
      await delivery.recordOutcomes(
        mine.flatMap((c) =>
          c.recipients.flatMap((r) =>
            Array.from({ length: parts }, (_, part) => ({
              kind: 'accepted' as const,
              messageId: message.id,
              seq: r.seq,
              part,
              carrier: 'c1',
              smscId: `${tag}-${r.seq}-${part}`,
            })),
          ),
        ),
        h.clock.now(),
      );
      for (const chunk of chunks) await delivery.releaseChunk('w', chunk, h.clock.now());
      return { id: message.id, uuid };
    }

    const receipt = (
      tag: string,
      seq: number,
      part: number,
      outcome: ReceiptReport['outcome'],
      error: string | null = null,
    ): ReceiptReport => ({ carrier: 'c1', smscId: `${tag}-${seq}-${part}`, outcome, error });

    /** The delivery fields of each recipient row, in seq order; masks read back as text. */
    async function rows(messageId: number) {
      const result = await sql<{
        status: string;
        error: string | null;
        attempts: number;
        accepted: string;
        delivered: string;
      }>`SELECT status, error, attempts, CAST(parts_accepted AS TEXT) AS accepted,
            CAST(parts_delivered AS TEXT) AS delivered
         FROM recipients WHERE message_id = ${messageId} ORDER BY seq`.execute(h.db.database.db);
      return result.rows.map((row) => ({ ...row, attempts: Number(row.attempts) }));
    }

    async function counts(uuid: string) {
      return Object.fromEntries(
        [...(await h.store.messageCountsByUuid(uuid))].filter(([, count]) => count > 0),
      );
    }

    it('keeps the first failure of two failed parts in one batch, with that failure’s own error', async () => {
      const { id, uuid } = await accepted('ff', 3, 2);
      await delivery.applyReceipts(
        [
          receipt('ff', 1, 1, 'failed', 'UNDELIV part 2'),
          receipt('ff', 2, 2, 'expired', 'EXPIRED part 3'),
          receipt('ff', 1, 2, 'expired', 'EXPIRED part 3'),
          receipt('ff', 2, 0, 'failed', 'UNDELIV part 1'),
        ],
        h.clock.now(),
      );
      const [first, second] = await rows(id);
      assert.deepEqual(
        [first!.status, first!.error, second!.status, second!.error],
        ['failed', 'UNDELIV part 2', 'expired', 'EXPIRED part 3'],
      );
      assert.deepEqual(await counts(uuid), { failed: 1, expired: 1 });
    });

    it('folds a part’s success and another part’s failure in one batch in the order they came', async () => {
      const { id, uuid } = await accepted('sf', 2, 2);
      await delivery.applyReceipts(
        [
          // Recipient 1: a part delivered, then the other failed.
          receipt('sf', 1, 0, 'success'),
          receipt('sf', 1, 1, 'failed', 'UNDELIV'),
          // Recipient 2: a part failed, then the other delivered: already final, ignored.
          receipt('sf', 2, 1, 'failed', 'REJECTD'),
          receipt('sf', 2, 0, 'success'),
        ],
        h.clock.now(),
      );
      assert.deepEqual(await rows(id), [
        { status: 'failed', error: 'UNDELIV', attempts: 2, accepted: '3', delivered: '1' },
        { status: 'failed', error: 'REJECTD', attempts: 2, accepted: '3', delivered: '0' },
      ]);
      assert.deepEqual(await counts(uuid), { failed: 2 });
    });

    for (const { parts, how } of [
      { parts: 31, how: 'the most a send makes: 1,000 emoji' },
      { parts: 63, how: 'the most a part mask holds, bit 62 of a signed 64-bit column' },
    ]) {
      it(`delivers a message of ${parts} parts (${how}) only with its last part, masks exact`, async () => {
        const content = parts === 31 ? '🙂'.repeat(1_000) : 'Hi';
        const tag = `p${parts}`;
        const { id, uuid } = await accepted(tag, parts, 1, content);
        const all = ((1n << BigInt(parts)) - 1n).toString();
        assert.deepEqual(await rows(id), [
          { status: 'pending', error: null, attempts: parts, accepted: all, delivered: '0' },
        ]);
        // Every part but the first, in one batch, backwards: still pending.
        await delivery.applyReceipts(
          Array.from({ length: parts - 1 }, (_, i) => receipt(tag, 1, parts - 1 - i, 'success')),
          h.clock.now(),
        );
        const allButFirst = ((1n << BigInt(parts)) - 2n).toString();
        assert.deepEqual((await rows(id))[0], {
          status: 'pending',
          error: null,
          attempts: parts,
          accepted: all,
          delivered: allButFirst,
        });
        await delivery.applyReceipts([receipt(tag, 1, 0, 'success')], h.clock.now());
        assert.deepEqual((await rows(id))[0], {
          status: 'success',
          error: null,
          attempts: parts,
          accepted: all,
          delivered: all,
        });
        assert.deepEqual(await counts(uuid), { success: 1 });
      });
    }
  });
}
