import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_TIME_ZONE, formatDate, isTimeZone } from '../../web/src/lib/format-date.js';

// 2026-11-23 17:30 UTC: already the 24th in Bangkok (UTC+7), still the 23rd in New York.
const INSTANT = Date.UTC(2026, 10, 23, 17, 30);

describe('formatDate', () => {
  it('shows an instant in Bangkok time when the user has no time zone', () => {
    assert.equal(DEFAULT_TIME_ZONE, 'Asia/Bangkok');
    assert.equal(formatDate(INSTANT, { language: 'en' }), '24 Nov 2026, 00:30');
    assert.equal(formatDate(INSTANT, { language: 'en', timeZone: null }), '24 Nov 2026, 00:30');
  });

  it("shows it in the user's own time zone", () => {
    assert.equal(
      formatDate(INSTANT, { language: 'en', timeZone: 'America/New_York' }),
      '23 Nov 2026, 12:30',
    );
    assert.equal(formatDate(INSTANT, { language: 'en', timeZone: 'UTC' }), '23 Nov 2026, 17:30');
  });

  it('writes Thai dates the Thai way: Thai month, Buddhist era', () => {
    assert.equal(formatDate(INSTANT, { language: 'th', style: 'date' }), '24 พ.ย. 2569');
    assert.equal(formatDate(INSTANT, { language: 'th' }), '24 พ.ย. 2569 00:30');
  });

  it('reads ISO strings and Dates alike, and shows a dash for a bad value', () => {
    const iso = new Date(INSTANT).toISOString();
    assert.equal(
      formatDate(iso, { language: 'en' }),
      formatDate(new Date(INSTANT), { language: 'en' }),
    );
    assert.equal(formatDate('not a date', { language: 'en' }), '—');
  });

  it('falls back to Bangkok for a time zone Intl does not know', () => {
    assert.equal(isTimeZone('Mars/Olympus_Mons'), false);
    assert.equal(isTimeZone('Asia/Bangkok'), true);
    assert.equal(
      formatDate(INSTANT, { language: 'en', timeZone: 'Mars/Olympus_Mons' }),
      '24 Nov 2026, 00:30',
    );
  });
});
