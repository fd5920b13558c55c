import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../test/support/fake-clock.js';
import { SubmitRateLimiter } from './submit-rate-limiter.js';

function limiterAt(limitPerSecond: number) {
  const clock = new FakeClock();
  return { clock, limiter: new SubmitRateLimiter(limitPerSecond, () => clock.now()) };
}

function timers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('SubmitRateLimiter', () => {
  it('lets a burst of 1/20 s go at once, then makes the next submit wait for its token', async () => {
    const { clock, limiter } = limiterAt(100);
    for (let i = 0; i < 5; i++) assert.equal(limiter.take(), null);
    const sixth = limiter.take();
    assert.ok(sixth instanceof Promise);
    assert.equal(limiter.waiting, 1);
    clock.advance(10);
    await sixth;
    assert.equal(limiter.waiting, 0);
  });

  it('lets waiters go in first-come order, with one timer for all of them', async () => {
    const { clock, limiter } = limiterAt(1_000);
    for (let i = 0; i < 50; i++) assert.equal(limiter.take(), null);
    const before = timers();
    const order: number[] = [];
    const waits = Array.from({ length: 100 }, (_, i) => limiter.take()!.then(() => order.push(i)));
    assert.equal(timers() - before, 1);
    // A token a millisecond, and the bucket holds 50: two turns of the clock let them all go.
    clock.advance(50);
    await waits[49];
    assert.equal(limiter.waiting, 50);
    clock.advance(50);
    await Promise.all(waits);
    assert.deepEqual(
      order,
      Array.from({ length: 100 }, (_, i) => i),
    );
    assert.equal(timers(), before);
  });

  it('does not let a new submit pass a waiting one', async () => {
    const { clock, limiter } = limiterAt(20);
    assert.equal(limiter.take(), null);
    const first = limiter.take();
    assert.ok(first);
    clock.advance(100);
    // A token is there now, but it is the waiter's.
    const second = limiter.take();
    assert.ok(second instanceof Promise);
    limiter.failAll(new Error('done'));
    await assert.rejects(first, /done/);
    await assert.rejects(second, /done/);
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

  it('makes submits wait longer once throttled', async () => {
    const { clock, limiter } = limiterAt(100);
    for (let i = 0; i < 5; i++) assert.equal(limiter.take(), null);
    limiter.throttled();
    const next = limiter.take()!;
    // At 100/s one token took 10 ms; at 50/s 10 ms is not enough.
    clock.advance(10);
    let released = false;
    void next.then(() => (released = true));
    assert.equal(limiter.waiting, 1);
    clock.advance(10);
    await next;
    assert.equal(released, true);
  });

  it('rejects every waiter on failAll and leaves no timer', async () => {
    const { limiter } = limiterAt(10);
    const before = timers();
    limiter.take();
    const waits = [limiter.take(), limiter.take()];
    assert.equal(timers() - before, 1);
    limiter.failAll(new Error('carrier down'));
    for (const wait of waits) await assert.rejects(wait!, /carrier down/);
    assert.equal(timers(), before);
    assert.equal(limiter.waiting, 0);
  });
});
