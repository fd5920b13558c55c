import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countParts, splitParts } from './message-parts.js';

const thai = 'สวัสดีครับ'; // 10 UTF-16 units

describe('message parts', () => {
  it('sends up to 70 units as one part, Thai and Latin alike', () => {
    assert.equal(countParts('a'.repeat(70)), 1);
    assert.equal(countParts(thai.repeat(7)), 1);
  });

  it('cuts longer content every 67 units', () => {
    assert.equal(countParts('a'.repeat(71)), 2);
    assert.equal(countParts('a'.repeat(134)), 2);
    assert.equal(countParts('a'.repeat(135)), 3);
    assert.equal(countParts(thai.repeat(100)), Math.ceil(1000 / 67));
    assert.deepEqual(
      splitParts('a'.repeat(135)).map((p) => p.length),
      [67, 67, 1],
    );
  });

  it('never splits a surrogate pair across parts', () => {
    const content = 'a'.repeat(66) + '😀' + 'b'.repeat(10); // the emoji straddles unit 67
    const parts = splitParts(content);
    assert.equal(parts[0], 'a'.repeat(66));
    assert.ok(parts[1]!.startsWith('😀'));
    assert.equal(parts.join(''), content);
    assert.equal(countParts(content), parts.length);
  });

  it('counts parts exactly as it splits them for every length up to 1,000', () => {
    for (let n = 1; n <= 1000; n++) {
      const content = '😀a'.repeat(n).slice(0, n);
      assert.equal(countParts(content), splitParts(content).length, `length ${n}`);
      assert.equal(splitParts(content).join(''), content);
    }
  });
});
