import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimerWheel } from './timer-wheel.js';

describe('timer wheel', () => {
  it('hands out items once due, earliest slot first, in scheduling order', () => {
    const out: string[][] = [];
    const wheel = new TimerWheel<string>(
      (items) => out.push(items),
      10,
      () => 0,
    );
    wheel.schedule('late', 35);
    wheel.schedule('early-1', 12);
    wheel.schedule('early-2', 18);
    assert.equal(wheel.size, 3);
    wheel.flush(15);
    assert.deepEqual(out, []);
    wheel.flush(20);
    assert.deepEqual(out, [['early-1', 'early-2']]);
    wheel.flush(100);
    assert.deepEqual(out, [['early-1', 'early-2'], ['late']]);
    assert.equal(wheel.size, 0);
    wheel.close();
  });

  it('runs its own timer while items wait and stops it when empty', async () => {
    let now = 0;
    const due = new Promise<string[]>((resolve) => {
      const wheel = new TimerWheel<string>(
        (items) => resolve(items),
        1,
        () => now,
      );
      wheel.schedule('x', 5);
      now = 5; // the next tick finds it due
    });
    assert.deepEqual(await due, ['x']);
  });

  it('forgets waiting items on close', () => {
    const out: string[][] = [];
    const wheel = new TimerWheel<string>(
      (items) => out.push(items),
      10,
      () => 0,
    );
    wheel.schedule('x', 1);
    wheel.close();
    wheel.flush(1000);
    assert.deepEqual(out, []);
  });
});
