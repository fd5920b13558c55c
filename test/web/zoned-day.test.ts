import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endOfDayIn, startOfDayIn, wallTimeIn } from '../../web/src/lib/zoned-day.js';

describe('startOfDayIn', () => {
  it("starts a day at midnight in the user's zone, Bangkok by default", () => {
    assert.equal(startOfDayIn('2026-11-24', 'Asia/Bangkok'), '2026-11-23T17:00:00.000Z');
    assert.equal(startOfDayIn('2026-11-24', null), '2026-11-23T17:00:00.000Z');
    assert.equal(startOfDayIn('2026-11-24', 'Not/AZone'), '2026-11-23T17:00:00.000Z');
    assert.equal(startOfDayIn('2026-11-24', 'UTC'), '2026-11-24T00:00:00.000Z');
    assert.equal(startOfDayIn('2026-11-24', 'America/New_York'), '2026-11-24T05:00:00.000Z');
  });

  it('ends a day where the next one starts, across a month and a year', () => {
    assert.equal(startOfDayIn('2026-11-30', 'Asia/Bangkok', 1), '2026-11-30T17:00:00.000Z');
    assert.equal(startOfDayIn('2026-12-31', 'UTC', 1), '2027-01-01T00:00:00.000Z');
  });

  it('stays right on the days a zone changes its clocks', () => {
    // New York: clocks go forward on 8 March 2026 at 02:00, back on 1 November at 02:00
    assert.equal(startOfDayIn('2026-03-08', 'America/New_York'), '2026-03-08T05:00:00.000Z');
    assert.equal(startOfDayIn('2026-03-09', 'America/New_York'), '2026-03-09T04:00:00.000Z');
    assert.equal(startOfDayIn('2026-11-01', 'America/New_York'), '2026-11-01T04:00:00.000Z');
    assert.equal(startOfDayIn('2026-11-02', 'America/New_York'), '2026-11-02T05:00:00.000Z');
  });

  it('ends a day at its last millisecond, the inclusive end of a window of days', () => {
    assert.equal(endOfDayIn('2026-11-30', 'Asia/Bangkok'), '2026-11-30T16:59:59.999Z');
    assert.equal(endOfDayIn('2026-12-31', 'UTC'), '2026-12-31T23:59:59.999Z');
    assert.equal(endOfDayIn('31/12/2026', 'UTC'), null);
  });

  it('answers null for what is not a day', () => {
    assert.equal(startOfDayIn('', 'UTC'), null);
    assert.equal(startOfDayIn('24/11/2026', 'UTC'), null);
  });
});

describe('wallTimeIn', () => {
  it("reads a datetime-local value as a time in the user's zone", () => {
    assert.equal(wallTimeIn('2026-12-01T09:30', 'Asia/Bangkok'), '2026-12-01T02:30:00.000Z');
    assert.equal(wallTimeIn('2026-12-01T09:30', null), '2026-12-01T02:30:00.000Z');
    assert.equal(wallTimeIn('2026-07-01T09:30', 'America/New_York'), '2026-07-01T13:30:00.000Z');
    assert.equal(wallTimeIn('2026-12-01T09:30', 'America/New_York'), '2026-12-01T14:30:00.000Z');
  });

  it('refuses what is not a wall time', () => {
    assert.equal(wallTimeIn('', 'UTC'), null);
    assert.equal(wallTimeIn('2026-12-01', 'UTC'), null);
    assert.equal(wallTimeIn('tomorrow', 'UTC'), null);
  });
});
