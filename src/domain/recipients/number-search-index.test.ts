import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../test/support/seeded-random.js';
import type { CompactRecipientList } from './recipient-store.js';
import { scanCompactList } from './compact-list.js';
import { NumberSearchIndex } from './number-search-index.js';

const list: CompactRecipientList = {
  numbers: Uint32Array.from([812345678, 812345679, 900000001, 600000000, 6]),
  blockedSeqs: [2],
  invalid: ['ABC123', '12\n345', 'ไทย66'],
};

const seqs = (index: NumberSearchIndex, search: string, after = 0) => [
  ...index.matches(search, after),
];

describe('number search index', () => {
  const index = NumberSearchIndex.build(list);

  it('finds a substring anywhere in a number, in seq order, each recipient once', () => {
    assert.deepEqual(seqs(index, '2345'), [1, 2]);
    assert.deepEqual(seqs(index, '123'), [1, 2, 6]);
    assert.deepEqual(seqs(index, '66'), [1, 2, 3, 4, 5, 8]);
    assert.deepEqual(seqs(index, '66000000006'), [5]);
    assert.deepEqual(seqs(index, '0000'), [3, 4, 5]);
  });

  it('starts after the cursor, also inside the invalid entries', () => {
    assert.deepEqual(seqs(index, '123', 1), [2, 6]);
    assert.deepEqual(seqs(index, '66', 5), [8]);
    assert.deepEqual(seqs(index, '66', 8), []);
    assert.deepEqual(seqs(index, '66', 100), []);
  });

  it('matches invalid entries case-insensitively and in any script', () => {
    assert.deepEqual(seqs(index, 'abc'), [6]);
    assert.deepEqual(seqs(index, 'C12'), [6]);
    assert.deepEqual(seqs(index, 'ไทย'), [8]);
  });

  it('never matches across two entries', () => {
    assert.deepEqual(seqs(index, '8\n66'), []);
    assert.deepEqual(seqs(index, '67866'), []);
  });

  it('counts matches', () => {
    assert.equal(index.count('123'), 3);
    assert.equal(index.count('nothing'), 0);
    assert.equal(index.total, 8);
  });

  it('agrees with a plain scan of the compact list for random lists and searches', () => {
    const random = seededRandom(42);
    for (let round = 0; round < 50; round++) {
      const numbers = Uint32Array.from({ length: 200 }, () => Math.floor(random() * 1e9));
      const invalid = Array.from({ length: 5 }, (_, i) => `x${i}${Math.floor(random() * 1000)}`);
      const randomList = { numbers, blockedSeqs: [], invalid };
      const randomIndex = NumberSearchIndex.build(randomList);
      for (const search of ['1', '12', '987', '0000', 'x1', '6681']) {
        const after = Math.floor(random() * 205);
        const expected = [...scanCompactList(randomList, after, { search })].map((r) => r.seq);
        assert.deepEqual(seqs(randomIndex, search, after), expected, `${search} after ${after}`);
      }
    }
  });
});
