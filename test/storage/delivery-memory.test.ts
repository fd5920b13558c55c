// A long-running dispatcher's memory must not grow with the messages it claimed: single-number
// traffic (one-time codes) claims a new message for every recipient. The chunk statements are
// shared by both engines (storage/delivery-chunks.ts), so SQLite, in process and quick to claim
// from, shows it for both. What is counted is every entry of every Map and Set in the process
// (found through the inspector), before and after a thousand messages are delivered.
import assert from 'node:assert/strict';
import { Session } from 'node:inspector/promises';
import { after, before, describe, it } from 'node:test';
import type { DeliveryStore } from '../../src/domain/delivery/delivery-store.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import type { MessageRow, Row } from '../../src/storage/schema.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

const WARM_UP = 200;
const MESSAGES = 1_000;

const sqlite = testEngines().find((engine) => engine.name === 'sqlite')!;

/** Entries held by every live Map and Set of the process. */
async function entriesInMapsAndSets(): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    let total = 0;
    for (const prototype of ['Map.prototype', 'Set.prototype']) {
      const { result } = await session.post('Runtime.evaluate', { expression: prototype });
      const { objects } = await session.post('Runtime.queryObjects', {
        prototypeObjectId: result.objectId!,
      });
      const { result: sum } = await session.post('Runtime.callFunctionOn', {
        objectId: objects.objectId!,
        // A subclass's prototype is among them, and its `size` throws.
        functionDeclaration: `function () {
          let n = 0;
          for (const m of this) try { n += m.size; } catch {}
          return n;
        }`,
        returnByValue: true,
      });
      total += sum.value as number;
    }
    return total;
  } finally {
    session.disconnect();
  }
}

describe('delivery store memory (sqlite)', () => {
  let h: Harness;
  let delivery: DeliveryStore;
  let template: { message: MessageRow; recipient: Row<'recipients'> };
  let copies = 0;

  before(async () => {
    h = await createHarness(sqlite);
    const customer = await h.customer({ credits: 10 });
    delivery = h.db.database.delivery;
    const { uuid } = await h.send(customer, {
      sender: customer.sender,
      content: 'Your code is 123456',
      msisdns: ['0810000001'],
    });
    const cache = new CompactListCache();
    while (
      (await materialiseNextChunk(h.store, h.db.database.engine, cache, 1000, h.clock.now())) > 0
    );
    const id = (await h.store.findMessageByUuid(uuid))!.id;
    const db = h.db.database.db;
    template = {
      message: await db
        .selectFrom('messages')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
      recipient: await db
        .selectFrom('recipients')
        .selectAll()
        .where('message_id', '=', id)
        .executeTakeFirstOrThrow(),
    };
  });
  after(() => h.close());

  /** `count` copies of the accepted one-number message, each with its recipient row. */
  async function oneNumberMessages(count: number): Promise<void> {
    const db = h.db.database.db;
    const { message, recipient } = template;
    const { id: _id, ...fields } = message;
    for (let done = 0; done < count;) {
      const batch = Math.min(500, count - done);
      const ids = await db
        .insertInto('messages')
        .values(
          Array.from({ length: batch }, (_, i) => ({
            ...fields,
            uuid: `${message.uuid.slice(0, -12)}${String(copies + i).padStart(12, '0')}`,
            ref_no: `copy-${copies + i}`,
          })),
        )
        .returning('id')
        .execute();
      await db
        .insertInto('recipients')
        .values(ids.map(({ id }) => ({ ...recipient, message_id: id })))
        .execute();
      done += batch;
      copies += batch;
    }
  }

  /** Claims every message's chunk, stores its acceptance and releases it: the message is sent. */
  async function deliverAll(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const nowMs = h.clock.now();
      const chunks = [];
      for (let i = 0; i < 200; i++) {
        const chunk = await delivery.claimChunk({
          owner: 'd',
          nowMs,
          leaseMs: 30_000,
          chunkSize: 100,
        });
        if (!chunk) break;
        chunks.push(chunk);
      }
      if (chunks.length === 0) return delivered;
      await delivery.recordOutcomes(
        chunks.flatMap((chunk) =>
          chunk.recipients.map((r) => ({
            kind: 'accepted' as const,
            messageId: chunk.messageId,
            seq: r.seq,
            part: 0,
            carrier: 'c1',
            smscId: `${chunk.messageId}-${r.seq}`,
          })),
        ),
        nowMs,
      );
      for (const chunk of chunks) await delivery.releaseChunk('d', chunk, nowMs);
      delivered += chunks.length;
    }
  }

  /** `count` one-number messages, a few hundred pending at a time, as OTP traffic comes. */
  async function sendAndDeliver(count: number): Promise<number> {
    let delivered = 0;
    for (let done = 0; done < count; done += 500) {
      await oneNumberMessages(Math.min(500, count - done));
      delivered += await deliverAll();
    }
    return delivered;
  }

  it('keeps nothing per message once its chunks are released', async () => {
    assert.equal(await sendAndDeliver(WARM_UP), WARM_UP + 1);
    const before = await entriesInMapsAndSets();
    assert.equal(await sendAndDeliver(MESSAGES), MESSAGES);
    const growth = (await entriesInMapsAndSets()) - before;
    const sent = await h.db.database.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    assert.equal(Number(sent.n), WARM_UP + MESSAGES + 1, 'every message was delivered');
    assert.ok(
      growth < MESSAGES / 2,
      `Maps and Sets gained ${growth} entries over ${MESSAGES} messages`,
    );
  });
});
