import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../../test/support/seeded-random.js';
import { NumberSet } from './number-set.js';

describe('NumberSet', () => {
  it('adds a value once and reports whether it was new', () => {
    const set = new NumberSet();
    assert.equal(set.add(812345678), true);
    assert.equal(set.add(812345678), false);
    assert.equal(set.size, 1);
    assert.equal(set.has(812345678), true);
    assert.equal(set.has(812345679), false);
  });

  it('holds 0 and the largest uint32 like any other value', () => {
    const set = new NumberSet();
    assert.equal(set.has(0), false);
    assert.equal(set.has(0xffffffff), false);
    assert.equal(set.add(0xffffffff), true);
    assert.equal(set.add(0), true);
    assert.equal(set.add(0xffffffff), false);
    assert.equal(set.add(0), false);
    assert.equal(set.has(0xffffffff), true);
    assert.deepEqual([...set.toArray()], [0xffffffff, 0]);
  });

  it('refuses values that are not uint32', () => {
    const set = new NumberSet();
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN]) {
      assert.throws(() => set.add(bad), RangeError);
      assert.equal(set.has(bad), false);
    }
  });

  it('returns members in first-insertion order, as an exactly sized copy', () => {
    const set = new NumberSet();
    for (const value of [5, 3, 5, 9, 3, 1]) set.add(value);
    const values = set.toArray();
    assert.deepEqual([...values], [5, 3, 9, 1]);
    assert.equal(values.length, 4);
    values[0] = 7;
    assert.deepEqual([...set.toArray()], [5, 3, 9, 1]);
  });

  it('grows past its expected size', () => {
    const set = new NumberSet(4);
    for (let i = 0; i < 10_000; i++) assert.equal(set.add(i * 7919), true);
    assert.equal(set.size, 10_000);
    for (let i = 0; i < 10_000; i++) assert.equal(set.has(i * 7919), true);
    assert.equal(set.has(3), false);
    assert.deepEqual(
      [...set.toArray()],
      Array.from({ length: 10_000 }, (_, i) => i * 7919),
    );
  });

  it('matches a JS Set over 1M random inserts', () => {
    const random = seededRandom(7);
    const set = new NumberSet(1000);
    const reference = new Set<number>();
    for (let i = 0; i < 1_000_000; i++) {
      // A narrow range forces many repeats alongside fresh values.
      const value = Math.floor(random() * 1_500_000) * 613;
      assert.equal(set.add(value), !reference.has(value));
      reference.add(value);
    }
    assert.equal(set.size, reference.size);
    assert.deepEqual(set.toArray(), Uint32Array.from(reference));
    for (let i = 0; i < 10_000; i++) {
      const value = Math.floor(random() * 1_500_000) * 613 + (i % 2);
      assert.equal(set.has(value), reference.has(value));
    }
  });
});
