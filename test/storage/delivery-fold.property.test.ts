import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { NO_RECEIPT, type DeliveryEvent } from '../../src/domain/delivery/delivery-events.js';
import { CompactListCache } from '../../src/domain/recipients/compact-list-cache.js';
import { materialiseNextChunk } from '../../src/scheduler/materialise-recipients.js';
import {
  eventArrays,
  eventsFromArrays,
  eventsFromJson,
  foldCtes,
  FoldEvents,
  foldWriteCtes,
  selectFolded,
  type FoldedRow,
} from '../../src/storage/delivery-fold.js';
import {
  foldDelivery,
  type FoldResult,
  type RecipientDeliveryState,
} from '../support/delivery-fold-model.js';
import { testEngines } from '../support/engines.js';
import { createHarness, type Harness } from '../support/harness.js';

/**
 * The one delivery fold (ADR 0045): the SQL both engines run (src/storage/delivery-fold.ts),
 * checked on each engine against the rules written as a plain function
 * (test/support/delivery-fold-model.ts). Every case folds events into one recipient's row as it
 * is stored, by the fold both engines run (without writing) and, on PostgreSQL, by the writes of
 * its batch statements (with the recursion, and without it for a single event): the row must be
 * the model's state, and no row at all must be written when the model changes nothing.
 */
const NOW = 1_000_000;

/** A recipient's state as a statement returns it, masks as text. */
type StoredState = Omit<FoldedRow, 'message_id' | 'seq'>;

function stateOf(row: StoredState): RecipientDeliveryState {
  return {
    status: row.status,
    error: row.error,
    attempts: Number(row.attempts),
    partsAccepted: BigInt(row.parts_accepted),
    partsDelivered: BigInt(row.parts_delivered),
    nextAttemptAt: Number(row.next_attempt_at),
    firstAttemptAt: row.first_attempt_at === null ? null : Number(row.first_attempt_at),
    updatedAt: Number(row.updated_at),
  };
}

const fresh: RecipientDeliveryState = {
  status: 'pending',
  error: null,
  attempts: 0,
  partsAccepted: 0n,
  partsDelivered: 0n,
  nextAttemptAt: 0,
  firstAttemptAt: null,
  updatedAt: 5,
};

const event: fc.Arbitrary<DeliveryEvent> = fc.oneof(
  fc.record({ kind: fc.constant('accepted' as const), part: fc.nat({ max: 2 }) }),
  fc.record({
    kind: fc.constant('retry' as const),
    nextAttemptAt: fc.nat(),
    error: fc.constantFrom('throttled', 'down'),
  }),
  fc.record({
    kind: fc.constant('final' as const),
    status: fc.constantFrom('failed' as const, 'invalid' as const, 'expired' as const),
    error: fc.constantFrom('a', 'b'),
  }),
  fc.record({
    kind: fc.constant('receipt' as const),
    part: fc.nat({ max: 2 }),
    outcome: fc.constantFrom('success' as const, 'failed' as const, 'expired' as const),
    error: fc.constantFrom(null, 'UNDELIV'),
  }),
  fc.constant({ kind: 'timeout' as const }),
);

const mask = fc.nat({ max: 7 }).map(BigInt);
const state: fc.Arbitrary<RecipientDeliveryState> = fc.record({
  status: fc.constantFrom(
    'pending' as const,
    'pending' as const,
    'pending' as const,
    'success' as const,
    'failed' as const,
  ),
  error: fc.constantFrom(null, 'throttled'),
  attempts: fc.nat({ max: 5 }),
  partsAccepted: mask,
  partsDelivered: mask,
  nextAttemptAt: fc.nat({ max: 2_000_000 }),
  firstAttemptAt: fc.option(fc.nat({ max: 2_000_000 })),
  updatedAt: fc.nat({ max: 2_000_000 }),
});

describe('the delivery fold’s rules, as a model', () => {
  it('gives the same state for a batch as for its events folded one at a time', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), fc.nat({ max: 12 }), (events, cut) => {
        const whole = foldDelivery(fresh, 3, events, NOW);
        const first = foldDelivery(fresh, 3, events.slice(0, cut), NOW);
        const second = foldDelivery(first.state, 3, events.slice(cut), NOW);
        assert.deepEqual(second.state, whole.state);
        assert.equal(whole.became, first.became ?? second.became);
        assert.equal(whole.changed, first.changed || second.changed);
      }),
      { seed: 7_2026, numRuns: 300 },
    );
  });
});

for (const engine of testEngines()) {
  describe(`the delivery fold in SQL (${engine.name})`, () => {
    let h: Harness;
    let messageId: number;
    let seq: number;

    before(async () => {
      h = await createHarness(engine);
      const customer = await h.customer();
      const { uuid } = await h.send(customer, {
        sender: customer.sender,
        content: 'Hi',
        msisdns: ['0812345678'],
      });
      const cache = new CompactListCache();
      while (
        (await materialiseNextChunk(h.store, h.db.database.engine, cache, 1000, h.clock.now())) > 0
      );
      const message = (await h.store.findMessageByUuid(uuid))!;
      messageId = message.id;
      const row = await sql<{ seq: number }>`SELECT seq FROM recipients
        WHERE message_id = ${messageId}`.execute(h.db.database.db);
      seq = Number(row.rows[0]!.seq);
    });
    after(() => h.close());

    /** Stores `start` as the recipient's row, its message having `parts`. */
    async function store(start: RecipientDeliveryState, parts: number): Promise<void> {
      const db = h.db.database.db;
      await sql`UPDATE messages SET parts = ${parts} WHERE id = ${messageId}`.execute(db);
      await sql`UPDATE recipients SET status = ${start.status}, error = ${start.error},
          attempts = ${start.attempts},
          parts_accepted = CAST(${start.partsAccepted.toString()} AS BIGINT),
          parts_delivered = CAST(${start.partsDelivered.toString()} AS BIGINT),
          next_attempt_at = ${start.nextAttemptAt}, first_attempt_at = ${start.firstAttemptAt},
          updated_at = ${start.updatedAt}
        WHERE message_id = ${messageId} AND seq = ${seq}`.execute(db);
    }

    function foldEvents(events: readonly DeliveryEvent[]): FoldEvents {
      const folds = new FoldEvents();
      for (const e of events) folds.add(messageId, seq, e);
      return folds;
    }

    /** The row the SQL folds `events` into from `start`, or null when it writes none. */
    async function sqlFold(
      start: RecipientDeliveryState,
      parts: number,
      events: readonly DeliveryEvent[],
    ): Promise<RecipientDeliveryState | null> {
      await store(start, parts);
      const folds = foldEvents(events);
      const source =
        engine.name === 'sqlite'
          ? eventsFromJson(folds.json())
          : eventsFromArrays(eventArrays(folds));
      const { rows } = await sql<FoldedRow>`WITH RECURSIVE ${foldCtes(source, NOW, {
        lock: false,
      })} ${selectFolded}`.execute(h.db.database.db);
      assert.ok(rows.length <= 1);
      return rows[0] ? stateOf(rows[0]) : null;
    }

    /**
     * The row as PostgreSQL's batch statements write it (`foldWriteCtes`, with the recursion or,
     * for one event, without), or null when they write none.
     */
    async function sqlWrite(
      start: RecipientDeliveryState,
      parts: number,
      events: readonly DeliveryEvent[],
      { several }: { several: boolean },
    ): Promise<RecipientDeliveryState | null> {
      await store(start, parts);
      const db = h.db.database.db;
      const written = await sql<{ n: number }>`WITH RECURSIVE ${foldWriteCtes(
        eventsFromArrays(eventArrays(foldEvents(events))),
        NOW,
        { several },
      )} SELECT count(*) AS n FROM upd`.execute(db);
      const n = Number(written.rows[0]!.n);
      assert.ok(n <= 1);
      if (n === 0) return null;
      const { rows } =
        await sql<StoredState>`SELECT status, error, attempts, CAST(parts_accepted AS TEXT) AS parts_accepted,
          CAST(parts_delivered AS TEXT) AS parts_delivered, next_attempt_at, first_attempt_at,
          updated_at
        FROM recipients WHERE message_id = ${messageId} AND seq = ${seq}`.execute(db);
      return stateOf(rows[0]!);
    }

    /** Folds by the SQL and by the model, asserts they agree, and returns the model's result. */
    async function fold(events: DeliveryEvent[], parts = 1, start = fresh): Promise<FoldResult> {
      const model = foldDelivery(start, parts, events, NOW);
      const expected = model.changed ? model.state : null;
      assert.deepEqual(await sqlFold(start, parts, events), expected);
      if (engine.name === 'postgres') {
        assert.deepEqual(await sqlWrite(start, parts, events, { several: true }), expected);
        if (events.length === 1) {
          assert.deepEqual(await sqlWrite(start, parts, events, { several: false }), expected);
        }
      }
      return model;
    }

    it('keeps the first failure of two failed parts, with its own error', async () => {
      const result = await fold(
        [
          { kind: 'accepted', part: 0 },
          { kind: 'accepted', part: 1 },
          { kind: 'receipt', part: 1, outcome: 'expired', error: 'EXPIRED' },
          { kind: 'receipt', part: 0, outcome: 'failed', error: 'UNDELIV' },
        ],
        2,
      );
      assert.deepEqual(
        { status: result.state.status, error: result.state.error, at: result.state.updatedAt },
        { status: 'expired', error: 'EXPIRED', at: NOW },
      );
    });

    it('counts one attempt per part tried, whatever the answer, and none once final', async () => {
      const result = await fold(
        [
          { kind: 'retry', nextAttemptAt: NOW + 10, error: 'throttled' },
          { kind: 'retry', nextAttemptAt: NOW + 20, error: 'queue full' },
          { kind: 'accepted', part: 2 },
          { kind: 'final', status: 'invalid', error: 'ESME_RINVDSTADR' },
          { kind: 'accepted', part: 1 },
          { kind: 'retry', nextAttemptAt: NOW + 30, error: 'late' },
        ],
        3,
      );
      assert.equal(result.state.attempts, 4);
      assert.equal(result.state.partsAccepted, 0b100n);
      assert.equal(result.state.nextAttemptAt, NOW + 20, 'the last retry before it was final');
      assert.equal(result.state.firstAttemptAt, NOW);
      assert.deepEqual([result.state.status, result.state.error], ['invalid', 'ESME_RINVDSTADR']);
    });

    it('is success only once every part is delivered, and then keeps no error', async () => {
      const held = (await fold([{ kind: 'retry', nextAttemptAt: NOW, error: 'throttled' }], 3))
        .state;
      const partial = await fold(
        [
          { kind: 'receipt', part: 0, outcome: 'success', error: null },
          { kind: 'receipt', part: 2, outcome: 'success', error: null },
          { kind: 'receipt', part: 0, outcome: 'success', error: null },
        ],
        3,
        held,
      );
      assert.equal(partial.state.status, 'pending');
      assert.equal(partial.state.updatedAt, held.updatedAt, 'no status change, no updatedAt');
      const done = await fold(
        [{ kind: 'receipt', part: 1, outcome: 'success', error: null }],
        3,
        partial.state,
      );
      assert.deepEqual([done.became, done.state.error], ['success', null]);
      assert.equal(done.state.partsDelivered, 0b111n);
    });

    it('takes a failed receipt’s error as given, even none', async () => {
      const held = { ...fresh, error: 'throttled' };
      const result = await fold(
        [{ kind: 'receipt', part: 0, outcome: 'failed', error: null }],
        1,
        held,
      );
      assert.deepEqual([result.state.status, result.state.error], ['failed', null]);
    });

    it('times out with "no receipt", and leaves a final recipient as it is', async () => {
      const timedOut = await fold([{ kind: 'timeout' }]);
      assert.deepEqual([timedOut.state.status, timedOut.state.error], ['timeout', NO_RECEIPT]);
      const after = await fold(
        [
          { kind: 'receipt', part: 0, outcome: 'success', error: null },
          { kind: 'accepted', part: 0 },
          { kind: 'timeout' },
        ],
        1,
        timedOut.state,
      );
      assert.equal(after.changed, false);
    });

    it('delivers a message of 63 parts, the most a mask holds, only with its last part', async () => {
      const allButLast = (1n << 62n) - 1n;
      const partial = await fold(
        [{ kind: 'receipt', part: 0, outcome: 'success', error: null }],
        63,
        { ...fresh, partsDelivered: allButLast - 1n },
      );
      assert.equal(partial.state.status, 'pending');
      const done = await fold(
        [{ kind: 'receipt', part: 62, outcome: 'success', error: null }],
        63,
        partial.state,
      );
      assert.equal(done.state.status, 'success');
      assert.equal(done.state.partsDelivered, (1n << 63n) - 1n);
    });

    it('folds any stored state and events as the model does', async () => {
      await fc.assert(
        fc.asyncProperty(
          state,
          fc.integer({ min: 1, max: 3 }),
          fc.array(event, { minLength: 1, maxLength: 8 }),
          async (start, parts, events) => {
            await fold(events, parts, start);
          },
        ),
        { seed: 45_2026, numRuns: 150 },
      );
    });
  });
}
