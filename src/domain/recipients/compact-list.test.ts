import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompactRecipientList } from './recipient-store.js';
import { compactTotal, scanCompactList } from './compact-list.js';

const list: CompactRecipientList = {
  numbers: Uint32Array.from([812345678, 812345679, 900000001, 600000000]),
  blockedSeqs: [2],
  invalid: ['abc', '12345'],
};

const take = (after: number, query = {}) => [...scanCompactList(list, after, query)];

describe('compact recipient list', () => {
  it('numbers valid recipients first, then invalid ones', () => {
    assert.equal(compactTotal(list), 6);
    assert.deepEqual(
      take(0).map((r) => [r.seq, r.msisdn, r.status]),
      [
        [1, '66812345678', 'pending'],
        [2, '66812345679', 'blocked'],
        [3, '66900000001', 'pending'],
        [4, '66600000000', 'pending'],
        [5, 'abc', 'invalid'],
        [6, '12345', 'invalid'],
      ],
    );
  });

  it('starts after the cursor', () => {
    assert.deepEqual(
      take(4).map((r) => r.seq),
      [5, 6],
    );
    assert.deepEqual(take(6), []);
  });

  it('filters by status, including statuses the list cannot hold yet', () => {
    assert.deepEqual(
      take(0, { status: 'blocked' }).map((r) => r.seq),
      [2],
    );
    assert.deepEqual(
      take(0, { status: 'invalid' }).map((r) => r.seq),
      [5, 6],
    );
    assert.deepEqual(
      take(1, { status: 'pending' }).map((r) => r.seq),
      [3, 4],
    );
    assert.deepEqual(take(0, { status: 'success' }), []);
  });

  it('matches a substring of the number', () => {
    assert.deepEqual(
      take(0, { search: '2345' }).map((r) => r.seq),
      [1, 2, 6],
    );
    assert.deepEqual(
      take(0, { search: '2345', status: 'pending' }).map((r) => r.seq),
      [1],
    );
  });
});
