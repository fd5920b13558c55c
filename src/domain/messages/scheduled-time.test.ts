import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../errors.js';
import { checkScheduledTime } from './scheduled-time.js';

const now = Date.parse('2026-11-22T12:00:00Z');

describe('scheduledTime', () => {
  it('takes an instant in the future', () => {
    assert.equal(checkScheduledTime(now + 1, now), now + 1);
  });

  it('refuses the present and the past', () => {
    for (const instant of [now, now - 1, Date.parse('2026-11-22T18:59:00+07:00')]) {
      assert.throws(
        () => checkScheduledTime(instant, now),
        (e: unknown) => e instanceof DomainError && e.code === 'INVALID_SCHEDULED_TIME',
      );
    }
  });
});
