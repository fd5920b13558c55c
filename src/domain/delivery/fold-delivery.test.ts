import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  foldDelivery,
  lastPerKey,
  matchReceipts,
  NO_RECEIPT,
  type DeliveryEvent,
  type RecipientDeliveryState,
  type Submission,
} from './fold-delivery.js';
import { smscIdForms, type ReceiptReport } from './delivery-store.js';

const NOW = 1_000_000;
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

const fold = (events: DeliveryEvent[], parts = 1, state = fresh) =>
  foldDelivery(state, parts, events, NOW);

describe('folding delivery events into a recipient', () => {
  it('keeps the first failure of two failed parts, with its own error', () => {
    const result = fold(
      [
        { kind: 'accepted', part: 0 },
        { kind: 'accepted', part: 1 },
        { kind: 'receipt', part: 1, outcome: 'expired', error: 'EXPIRED' },
        { kind: 'receipt', part: 0, outcome: 'failed', error: 'UNDELIV' },
      ],
      2,
    );
    assert.equal(result.became, 'expired');
    assert.deepEqual(
      { status: result.state.status, error: result.state.error, updatedAt: result.state.updatedAt },
      { status: 'expired', error: 'EXPIRED', updatedAt: NOW },
    );
  });

  it('counts one attempt per part tried, whatever the answer, and none once final', () => {
    const result = fold(
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
    assert.equal(result.state.status, 'invalid');
    assert.equal(result.state.error, 'ESME_RINVDSTADR');
  });

  it('is success only once every part is delivered, and then keeps no error', () => {
    const held = fold([{ kind: 'retry', nextAttemptAt: NOW, error: 'throttled' }], 3).state;
    const partial = fold(
      [
        { kind: 'receipt', part: 0, outcome: 'success', error: null },
        { kind: 'receipt', part: 2, outcome: 'success', error: null },
        { kind: 'receipt', part: 0, outcome: 'success', error: null },
      ],
      3,
      held,
    );
    assert.equal(partial.state.status, 'pending');
    assert.equal(partial.became, null);
    assert.equal(partial.state.updatedAt, held.updatedAt, 'no status change, no updatedAt');
    const done = fold(
      [{ kind: 'receipt', part: 1, outcome: 'success', error: null }],
      3,
      partial.state,
    );
    assert.equal(done.became, 'success');
    assert.equal(done.state.error, null);
    assert.equal(done.state.partsDelivered, 0b111n);
  });

  it('takes a failed receipt’s error as given, even none', () => {
    const held = fold([{ kind: 'retry', nextAttemptAt: NOW, error: 'throttled' }]).state;
    const result = fold([{ kind: 'receipt', part: 0, outcome: 'failed', error: null }], 1, held);
    assert.equal(result.state.status, 'failed');
    assert.equal(result.state.error, null);
  });

  it('times out with "no receipt", and leaves a final recipient as it is', () => {
    const timedOut = fold([{ kind: 'timeout' }]);
    assert.equal(timedOut.state.status, 'timeout');
    assert.equal(timedOut.state.error, NO_RECEIPT);
    const after = fold(
      [
        { kind: 'receipt', part: 0, outcome: 'success', error: null },
        { kind: 'accepted', part: 0 },
        { kind: 'timeout' },
      ],
      1,
      timedOut.state,
    );
    assert.equal(after.changed, false);
    assert.equal(after.became, null);
    assert.equal(after.state, timedOut.state);
  });

  it('gives the same state for a batch as for its events folded one at a time', () => {
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
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), fc.nat({ max: 12 }), (events, cut) => {
        const whole = fold(events, 3);
        const first = fold(events.slice(0, cut), 3);
        const second = fold(events.slice(cut), 3, first.state);
        assert.deepEqual(second.state, whole.state);
        assert.equal(whole.became, first.became ?? second.became);
        assert.equal(whole.changed, first.changed || second.changed);
      }),
      { seed: 7_2026, numRuns: 300 },
    );
  });
});

describe('matching receipts to submissions', () => {
  const submission = (smscId: string, seq: number): Submission => ({
    carrier: 'c',
    smscId,
    messageId: 1,
    seq,
    part: 0,
    submittedAt: 0,
  });
  const receipt = (smscId: string, outcome: ReceiptReport['outcome'] = 'success') => ({
    carrier: 'c',
    smscId,
    outcome,
    error: null,
  });

  it('takes each submission once, in batch order, by the first id form that names one', () => {
    const stored = new Map([
      ['10', submission('10', 1)],
      ['a', submission('a', 2)],
    ]);
    const { matched, unmatched } = matchReceipts(
      [receipt('10'), receipt('10', 'failed'), receipt('10'), receipt('a', null), receipt('zz')],
      (_, id) => stored.get(id),
      smscIdForms,
    );
    assert.deepEqual(
      matched.map((m) => [m.receipt.outcome, m.submission.seq]),
      [
        ['success', 1],
        ['failed', 2],
      ],
    );
    assert.deepEqual(
      unmatched.map((r) => r.smscId),
      ['10', 'zz'],
    );
  });

  it('keeps the last item of a key', () => {
    assert.deepEqual(
      lastPerKey(['a1', 'b1', 'a2'], (s) => s[0]!),
      ['b1', 'a2'],
    );
  });
});
