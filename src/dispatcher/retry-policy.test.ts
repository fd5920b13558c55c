import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextAttemptAt } from './retry-policy.js';

const policy = { initialDelayMs: 1_000, maxDelayMs: 60_000, windowMs: 600_000 };

describe('nextAttemptAt', () => {
  it('waits the initial delay after a first failure', () => {
    assert.equal(nextAttemptAt(policy, null, 5_000), 6_000);
  });

  it('waits as long as has already been spent, so waits double, up to the maximum', () => {
    assert.equal(nextAttemptAt(policy, 0, 1_000), 2_000);
    assert.equal(nextAttemptAt(policy, 0, 2_000), 4_000);
    assert.equal(nextAttemptAt(policy, 0, 100_000), 160_000);
  });

  it('never waits past the end of the window, and gives up once it is over', () => {
    assert.equal(nextAttemptAt(policy, 0, 590_000), 600_000);
    assert.equal(nextAttemptAt(policy, 0, 600_000), null);
  });
});
