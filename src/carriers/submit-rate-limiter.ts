// A carrier's submits per second, shared by all its binds: a token bucket whose rate backs off
// when the carrier says it is throttling us. This is on the path of every submit (6,000–10,000 a
// second), so a submit that finds a token costs a few arithmetic operations and no allocation;
// one that must wait joins a FIFO, and one timer, armed for the head of that FIFO, serves them
// all.
import { performance } from 'node:perf_hooks';
import { FifoQueue } from './fifo-queue.js';

/** The bucket holds 1/20 s of submits: a short burst, not a second's worth at once. */
const BURST_SECONDS = 1 / 20;
/** throttled() answers come in bursts (a window's worth at once); one halving per second. */
const THROTTLE_SPACING_MS = 1_000;
/**
 * After a second without a throttle the rate climbs back by this share of the limit per second.
 * Not at once: a carrier that throttles every second must see the rate keep halving to what it
 * takes, not settle at the level where halving and climbing cancel out.
 */
const RECOVERY_SHARE_PER_SECOND = 0.1;
/** The rate never falls below this share of the limit (nor below 1 a second). */
const FLOOR_SHARE = 0.01;

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

export class SubmitRateLimiter {
  private readonly floorPerSecond: number;
  private tokens: number;
  private refilledAt: number;
  /** The rate set by the last throttle; the rate now is this plus what it has since climbed. */
  private rateAtThrottle: number;
  private throttledAt = -Infinity;
  private readonly waiters = new FifoQueue<Waiter>();
  private timer: NodeJS.Timeout | null = null;

  /** `now` in milliseconds, monotonic; tests pass a fake clock. */
  constructor(
    readonly limitPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(limitPerSecond > 0)) throw new RangeError(`submits per second must be > 0`);
    this.floorPerSecond = Math.min(limitPerSecond, Math.max(1, limitPerSecond * FLOOR_SHARE));
    this.rateAtThrottle = limitPerSecond;
    this.tokens = burstOf(limitPerSecond);
    this.refilledAt = now();
  }

  /** Submits allowed per second now: the limit, or less after throttled() while it climbs back. */
  get ratePerSecond(): number {
    return this.rateAt(this.now());
  }

  /** Submits waiting for their turn. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Takes the token of one submit. Returns null when it may go at once (the hot path: no promise
   * made), else a promise that resolves in first-come order once a token is there, or rejects
   * with the error given to failAll().
   */
  take(): Promise<void> | null {
    if (this.waiters.length === 0) {
      this.refill(this.now());
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return null;
      }
    }
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.timer === null) this.arm();
    });
  }

  /**
   * The carrier answered ESME_RTHROTTLED or ESME_RMSGQFUL: halve the rate (not below the floor),
   * at most once a second, since one overload answers every submit then in flight.
   */
  throttled(): void {
    const now = this.now();
    if (now - this.throttledAt < THROTTLE_SPACING_MS) return;
    this.refill(now);
    this.rateAtThrottle = Math.max(this.floorPerSecond, this.rateAt(now) / 2);
    this.throttledAt = now;
    this.tokens = Math.min(this.tokens, burstOf(this.rateAtThrottle));
  }

  /** Rejects every waiting submit with `error` and stops the timer. */
  failAll(error: Error): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const waiter of this.waiters.drain()) waiter.reject(error);
  }

  /** Additive increase: a second after the last throttle, the rate climbs back to the limit. */
  private rateAt(now: number): number {
    if (this.rateAtThrottle >= this.limitPerSecond) return this.limitPerSecond;
    const climbingMs = now - this.throttledAt - THROTTLE_SPACING_MS;
    if (climbingMs <= 0) return this.rateAtThrottle;
    const climbedPerSecond = (climbingMs / 1000) * RECOVERY_SHARE_PER_SECOND * this.limitPerSecond;
    return Math.min(this.limitPerSecond, this.rateAtThrottle + climbedPerSecond);
  }

  private refill(now: number): void {
    const elapsedMs = now - this.refilledAt;
    // A clock that did not move (a fake one, or two calls in one microsecond) adds nothing.
    if (elapsedMs <= 0) return;
    this.refilledAt = now;
    const ratePerSecond = this.rateAt(now);
    this.tokens = Math.min(
      burstOf(ratePerSecond),
      this.tokens + (elapsedMs * ratePerSecond) / 1000,
    );
  }

  /** One timer, for when the head waiter's token will be there. */
  private arm(): void {
    const now = this.now();
    this.refill(now);
    const delayMs = ((1 - this.tokens) * 1000) / this.rateAt(now);
    this.timer = setTimeout(this.release, Math.max(1, Math.ceil(delayMs)));
  }

  /** Lets as many waiters go, in order, as there are tokens; the timer's callback. */
  private readonly release = (): void => {
    this.timer = null;
    this.refill(this.now());
    while (this.tokens >= 1) {
      const waiter = this.waiters.shift();
      if (!waiter) break;
      this.tokens -= 1;
      waiter.resolve();
    }
    if (this.waiters.length > 0) this.arm();
  };
}

function burstOf(ratePerSecond: number): number {
  return Math.max(1, ratePerSecond * BURST_SECONDS);
}
