import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../test/support/fake-clock.js';
import { SubmitRateLimiter } from './submit-rate-limiter.js';

/** A limiter on a fake clock whose waiters are numbers, let go into `released`. */
function limiterAt(limitPerSecond: number, freeSlots: () => number = () => Infinity) {
  const clock = new FakeClock();
  const released: number[] = [];
  let onRelease: (() => void) | null = null;
  const limiter = new SubmitRateLimiter<number>({
    limitPerSecond,
    now: () => clock.now(),
    freeSlots,
    letGo: (waiter) => {
      released.push(waiter);
      onRelease?.();
    },
  });
  async function releasedCount(count: number): Promise<void> {
    while (released.length < count) await new Promise<void>((resolve) => (onRelease = resolve));
  }
  return { clock, limiter, released, releasedCount };
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('SubmitRateLimiter', () => {
  it('lets a burst of 1/20 s go at once, then makes the next submit wait for its token', async () => {
    const { clock, limiter, released, releasedCount } = limiterAt(100);
    for (let i = 0; i < 5; i++) assert.equal(limiter.tryTake(), true);
    assert.equal(limiter.tryTake(), false);
    limiter.wait(6);
    assert.equal(limiter.waiting, 1);
    clock.advance(10);
    await releasedCount(1);
    assert.deepEqual(released, [6]);
    assert.equal(limiter.waiting, 0);
  });

  it('lets waiters go in first-come order, with one timer for all of them', async () => {
    const { clock, limiter, released, releasedCount } = limiterAt(1_000);
    for (let i = 0; i < 50; i++) assert.equal(limiter.tryTake(), true);
    const before = timers();
    for (let i = 0; i < 100; i++) limiter.wait(i);
    assert.equal(timers() - before, 1);
    // A token a millisecond, and the bucket holds 50: two turns of the clock let them all go.
    clock.advance(50);
    await releasedCount(50);
    assert.equal(limiter.waiting, 50);
    clock.advance(50);
    await releasedCount(100);
    assert.deepEqual(
      released,
      Array.from({ length: 100 }, (_, i) => i),
    );
    assert.equal(timers(), before);
  });

  it('does not let a new submit pass a waiting one, and lets waiters go as new ones come', () => {
    const { clock, limiter, released } = limiterAt(20);
    assert.equal(limiter.tryTake(), true);
    assert.equal(limiter.tryTake(), false);
    limiter.wait(1);
    clock.advance(50);
    // A token is there now, but it is the waiter's: it goes as the next submit queues.
    assert.equal(limiter.tryTake(), false);
    limiter.wait(2);
    assert.deepEqual(released, [1]);
    assert.deepEqual(limiter.drain(), [2]);
  });

  it('holds submits while every window is full, without spending their tokens', async () => {
    let room = 0;
    const { limiter, released, releasedCount } = limiterAt(100, () => room);
    assert.equal(limiter.tryTake(), false);
    for (let i = 0; i < 5; i++) limiter.wait(i);
    room = 2;
    await releasedCount(2);
    assert.deepEqual(released, [0, 1]);
    // The clock has not moved: the burst of 5 tokens was kept for when the room came.
    room = 3;
    await releasedCount(5);
    assert.deepEqual(released, [0, 1, 2, 3, 4]);
    assert.equal(limiter.tryTake(), false);
  });

  it('halves the rate when throttled, at most once a second, and climbs back to the limit', () => {
    const { clock, limiter } = limiterAt(1_000);
    assert.equal(limiter.ratePerSecond, 1_000);
    limiter.throttled();
    assert.equal(limiter.ratePerSecond, 500);
    clock.advance(500);
    limiter.throttled();
    assert.equal(limiter.ratePerSecond, 500, 'a second throttle within a second is ignored');
    clock.advance(500);
    limiter.throttled();
    assert.equal(limiter.ratePerSecond, 250);
    // A second without a throttle, then +10 % of the limit a second, never above the limit.
    clock.advance(1_000);
    assert.equal(limiter.ratePerSecond, 250);
    clock.advance(1_500);
    assert.equal(limiter.ratePerSecond, 400);
    clock.advance(10_000);
    assert.equal(limiter.ratePerSecond, 1_000);
  });

  it('never throttles below 1 % of the limit, nor below one submit a second', () => {
    const { clock, limiter } = limiterAt(1_000);
    const small = limiterAt(10);
    for (let i = 0; i < 20; i++) {
      limiter.throttled();
      small.limiter.throttled();
      clock.advance(1_000);
      small.clock.advance(1_000);
    }
    assert.equal(limiter.ratePerSecond, 10);
    assert.equal(small.limiter.ratePerSecond, 1);
  });

  it('makes submits wait longer once throttled', () => {
    const { clock, limiter } = limiterAt(100);
    for (let i = 0; i < 5; i++) assert.equal(limiter.tryTake(), true);
    limiter.throttled();
    // At 100/s a token took 10 ms; at 50/s it takes 20.
    clock.advance(10);
    assert.equal(limiter.tryTake(), false);
    clock.advance(10);
    assert.equal(limiter.tryTake(), true);
  });

  it('hands back every waiter on drain and leaves no timer', () => {
    const { limiter } = limiterAt(10);
    const before = timers();
    limiter.tryTake();
    limiter.wait(1);
    limiter.wait(2);
    assert.equal(timers() - before, 1);
    assert.deepEqual(limiter.drain(), [1, 2]);
    assert.equal(timers(), before);
    assert.equal(limiter.waiting, 0);
  });
});
