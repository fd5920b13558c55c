import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { receiptFate, type ReceiptFate } from './receipt-fate.js';

const shares = { delivered: 0.7, failed: 0.1, expired: 0.1, rejected: 0.05, noReceipt: 0.05 };

function tally(seed: number, count: number): Map<ReceiptFate, number> {
  const counts = new Map<ReceiptFate, number>();
  for (let i = 0; i < count; i++) {
    const fate = receiptFate(String(66_800_000_000 + i), seed, shares);
    counts.set(fate, (counts.get(fate) ?? 0) + 1);
  }
  return counts;
}

describe('receipt fate', () => {
  it('splits 10,000 consecutive numbers close to the ratios', () => {
    const counts = tally(1, 10_000);
    const expected: [ReceiptFate, number][] = [
      ['DELIVRD', 0.7],
      ['UNDELIV', 0.1],
      ['EXPIRED', 0.1],
      ['REJECTD', 0.05],
      [null, 0.05],
    ];
    for (const [fate, share] of expected) {
      const got = (counts.get(fate) ?? 0) / 10_000;
      assert.ok(Math.abs(got - share) < 0.015, `${fate}: ${got} for ${share}`);
    }
  });

  it('gives a number the same fate every time, and another seed other fates', () => {
    assert.deepEqual(tally(7, 1000), tally(7, 1000));
    const a = [...Array(1000).keys()].map((i) => receiptFate(`6681${i}`, 7, shares));
    const b = [...Array(1000).keys()].map((i) => receiptFate(`6681${i}`, 8, shares));
    assert.notDeepEqual(a, b);
  });

  it('always delivers at a delivered share of 1 and never at 0', () => {
    const all = { delivered: 1, failed: 0, expired: 0, rejected: 0, noReceipt: 0 };
    const none = { delivered: 0, failed: 0, expired: 0, rejected: 0, noReceipt: 1 };
    for (let i = 0; i < 1000; i++) {
      assert.equal(receiptFate(`6690${i}`, 3, all), 'DELIVRD');
      assert.equal(receiptFate(`6690${i}`, 3, none), null);
    }
  });
});
