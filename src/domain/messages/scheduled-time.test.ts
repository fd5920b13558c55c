import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../errors.js';
import { parseScheduledTime } from './scheduled-time.js';

const now = Date.parse('2026-11-22T12:00:00Z');

describe('scheduledTime', () => {
  it('reads an instant with a positive, negative or zero offset', () => {
    assert.equal(
      parseScheduledTime('2026-11-23T09:30:00+07:00', now),
      Date.parse('2026-11-23T02:30:00Z'),
    );
    assert.equal(
      parseScheduledTime('2026-11-23T09:30:00-03:30', now),
      Date.parse('2026-11-23T13:00:00Z'),
    );
    assert.equal(
      parseScheduledTime('2026-11-23T09:30:00.250Z', now),
      Date.parse('2026-11-23T09:30:00.250Z'),
    );
  });

  it('refuses a time without an offset, a non-string, and impossible dates', () => {
    for (const bad of [
      '2026-11-23T09:30:00',
      '2026-11-23',
      123,
      null,
      '2026-02-30T10:00:00+07:00',
      '2026-11-23T24:00:00Z',
      '2026-11-23T23:59:60Z',
      '2026-11-23T09:30+07:00',
      '2026-11-23 09:30:00Z',
      '2026-11-23t09:30:00z',
      '2026-11-23T09:30:00.1234567890Z',
      '2026-11-23T09:30:00+24:00',
      'tomorrow',
    ]) {
      assert.throws(
        () => parseScheduledTime(bad, now),
        (e: unknown) => e instanceof DomainError && e.code === 'INVALID_SCHEDULED_TIME',
        String(bad),
      );
    }
  });

  it('refuses the present and the past', () => {
    assert.throws(() => parseScheduledTime('2026-11-22T12:00:00Z', now), DomainError);
    assert.throws(() => parseScheduledTime('2026-11-22T18:59:00+07:00', now), DomainError);
  });
});
