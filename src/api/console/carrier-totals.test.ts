import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { carrierTotals } from './carrier-totals.js';
import type { Carrier } from './contract/carriers.js';

const carrier = (name: string, fields: Partial<Carrier> = {}): Carrier => ({
  name,
  bindsUp: 2,
  bindsWanted: 2,
  receiversUp: 2,
  inFlight: 0,
  waiting: 0,
  submitsPerSecondLimit: 100,
  currentRatePerSecond: 100,
  lastError: null,
  ...fields,
});

describe('carrier totals over dispatchers', () => {
  it('adds up binds, work and rates per carrier, in the order the dispatchers first list them', () => {
    const totals = carrierTotals([
      [carrier('b', { inFlight: 3 }), carrier('a')],
      [carrier('a', { bindsUp: 1, receiversUp: 1, waiting: 4, currentRatePerSecond: 40 })],
      [carrier('c'), carrier('b', { inFlight: 2, submitsPerSecondLimit: 50 })],
    ]);
    assert.deepEqual(totals, [
      {
        ...carrier('b', {
          bindsUp: 4,
          bindsWanted: 4,
          receiversUp: 4,
          inFlight: 5,
          submitsPerSecondLimit: 150,
          currentRatePerSecond: 200,
        }),
        dispatchers: 2,
      },
      {
        ...carrier('a', {
          bindsUp: 3,
          bindsWanted: 4,
          receiversUp: 3,
          waiting: 4,
          submitsPerSecondLimit: 200,
          currentRatePerSecond: 140,
        }),
        dispatchers: 2,
      },
      { ...carrier('c'), dispatchers: 1 },
    ]);
  });

  it('shows the last error of the dispatcher with the fewest binds up', () => {
    const [total] = carrierTotals([
      [carrier('a', { bindsUp: 1, lastError: 'closed' })],
      [carrier('a', { bindsUp: 0, lastError: 'ECONNREFUSED' })],
      [carrier('a', { bindsUp: 0 })],
      [carrier('a', { bindsUp: 1, lastError: 'refused' })],
    ]);
    assert.equal(total!.lastError, 'ECONNREFUSED');
    assert.equal(carrierTotals([[carrier('a')], [carrier('a')]])[0]!.lastError, null);
  });

  it('has nothing without dispatchers', () => {
    assert.deepEqual(carrierTotals([]), []);
  });
});
