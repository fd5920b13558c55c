import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SubmitThrottle } from './submit-throttle.js';

describe('submit throttle', () => {
  it('accepts at most N submits in any second, per system_id', () => {
    let now = 0;
    const throttle = new SubmitThrottle(3, () => now);
    assert.deepEqual(
      [1, 2, 3, 4].map(() => throttle.tryAccept('a')),
      [true, true, true, false],
    );
    assert.equal(throttle.tryAccept('b'), true);
    now = 999;
    assert.equal(throttle.tryAccept('a'), false);
    now = 1000;
    assert.deepEqual(
      [1, 2, 3, 4].map(() => throttle.tryAccept('a')),
      [true, true, true, false],
    );
  });

  it('lets a steady rate at the limit through', () => {
    let now = 0;
    const throttle = new SubmitThrottle(10, () => now);
    for (let i = 0; i < 100; i++, now += 100) assert.ok(throttle.tryAccept('a'), `submit ${i}`);
  });
});
