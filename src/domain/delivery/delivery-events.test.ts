import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastPerKey, matchReceipts, type Submission } from './delivery-events.js';
import { smscIdForms, type ReceiptReport } from './delivery-store.js';

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
