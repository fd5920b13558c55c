import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countParts } from '../messages/message-parts.js';
import { LIMITS } from '../limits.js';
import { allParts, hasPart, MAX_PARTS, NO_PARTS, partBit, withPart } from './part-mask.js';

/** The content of `chars` characters with the most parts: astral characters, two units each. */
const worstContent = (chars: number) => '😀'.repeat(chars);

describe('part masks', () => {
  for (const parts of [1, 30, 31, 32, 33, 53, 54, 61, MAX_PARTS]) {
    it(`track every part of a ${parts}-part message, each on its own`, () => {
      const full = allParts(parts);
      let mask = NO_PARTS;
      for (let part = 0; part < parts; part++) {
        assert.equal(hasPart(mask, part), false);
        mask = withPart(mask, part);
        assert.equal(hasPart(mask, part), true, `part ${part}`);
        assert.equal(mask === full, part === parts - 1, `full only after the last (${part})`);
      }
      // Missing any one part is not full.
      for (let part = 0; part < parts; part++) assert.notEqual(full ^ partBit(part), full);
      assert.ok(full > 0n, 'non-negative in a signed 64-bit column');
      assert.ok(full <= 2n ** 63n - 1n);
    });
  }

  it('refuses a part or a message it cannot hold, rather than wrapping', () => {
    assert.throws(() => partBit(MAX_PARTS), RangeError);
    assert.throws(() => partBit(-1), RangeError);
    assert.throws(() => allParts(MAX_PARTS + 1), RangeError);
    assert.throws(() => allParts(0), RangeError);
  });

  it('hold the largest message the API can produce, sent or previewed', () => {
    assert.equal(countParts(worstContent(LIMITS.sendContentChars)), 31);
    assert.equal(countParts(worstContent(LIMITS.previewContentChars)), 61);
    assert.ok(countParts(worstContent(LIMITS.sendContentChars)) <= MAX_PARTS);
    assert.ok(countParts(worstContent(LIMITS.previewContentChars)) <= MAX_PARTS);
    // Plain text of the same length has fewer parts.
    assert.ok(countParts('a'.repeat(LIMITS.previewContentChars)) < 61);
  });
});
