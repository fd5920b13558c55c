import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReconnectBackoff } from './reconnect-backoff.js';

describe('ReconnectBackoff', () => {
  it('doubles from the initial delay up to the maximum, and starts again after a reset', () => {
    const backoff = new ReconnectBackoff(100, 1_000, () => 0);
    const delays = Array.from({ length: 6 }, () => backoff.nextDelayMs());
    assert.deepEqual(delays, [100, 200, 400, 800, 1_000, 1_000]);
    backoff.reset();
    assert.equal(backoff.nextDelayMs(), 100);
  });

  it('takes up to a quarter off each delay at random, so each is still longer than the last', () => {
    const low = new ReconnectBackoff(100, 1_000, () => 0.999);
    assert.deepEqual(
      Array.from({ length: 5 }, () => low.nextDelayMs()),
      [75, 150, 300, 600, 750],
    );
  });
});
