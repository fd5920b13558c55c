import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zoneOrDefault } from '../time-zones.js';
import { lastDaysIn } from './zoned-days.js';

describe('lastDaysIn', () => {
  it('ends with the day it is in the zone, not in UTC', () => {
    const now = Date.parse('2026-11-22T20:00:00Z');
    assert.equal(lastDaysIn('Asia/Bangkok', now, 1)[0]!.day, '2026-11-23');
    assert.equal(lastDaysIn('America/New_York', now, 1)[0]!.day, '2026-11-22');
  });

  it('starts each day at local midnight, 23 hours long across a spring-forward change', () => {
    const days = lastDaysIn('America/New_York', Date.parse('2026-03-09T12:00:00Z'), 3);
    assert.deepEqual(
      days.map((d) => d.day),
      ['2026-03-07', '2026-03-08', '2026-03-09'],
    );
    assert.equal(new Date(days[0]!.startMs).toISOString(), '2026-03-07T05:00:00.000Z');
    assert.equal(days[1]!.endMs - days[1]!.startMs, 23 * 3_600_000);
    assert.equal(new Date(days[2]!.startMs).toISOString(), '2026-03-09T04:00:00.000Z');
    assert.equal(days[0]!.endMs, days[1]!.startMs);
  });

  it('falls back to the default zone for an unknown one', () => {
    assert.equal(zoneOrDefault('Mars/Olympus'), 'Asia/Bangkok');
    assert.equal(zoneOrDefault(null), 'Asia/Bangkok');
    assert.equal(zoneOrDefault('Europe/Paris'), 'Europe/Paris');
  });
});
