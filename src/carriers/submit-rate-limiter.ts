// A carrier's submits per second, shared by all its binds: a token bucket whose rate backs off
// when the carrier says it is throttling us. This is on the path of every submit (6,000–10,000 a
// second), so a submit that finds a token costs a few arithmetic operations and no allocation;
// one that must wait joins a FIFO, and one timer, armed for the head of that FIFO, serves them
// all.
//
// A submit also waits here, without spending a token, while every window is full. Were it let go
// into a session's queue instead, submits would pile up there while the SMSC is slow and leave
// all at once when it catches up: over the rate, where the carrier counts. Waiting here, at most
// the bucket's burst goes out at once. Nothing says when a window slot frees up (a callback per
// submit would cost an allocation each), so waiters are looked at again on every new submit and,
// by the timer, every ROOM_POLL_MS.
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
/** How often waiters look for a free window slot while every window is full. */
const ROOM_POLL_MS = 1;

export interface SubmitRateLimiterOptions<W> {
  readonly limitPerSecond: number;
  /** Milliseconds, monotonic; tests pass a fake clock. */
  readonly now?: () => number;
  /** How many submits the windows of the bound binds can take now; default no bound. */
  readonly freeSlots?: () => number;
  /**
   * A waiter's turn has come: submit it now, synchronously, so that the next freeSlots() counts
   * it.
   */
  readonly letGo: (waiter: W) => void;
}

/** Gates submits by tokens and window room; `W` is whatever a waiting submit is to its owner. */
export class SubmitRateLimiter<W> {
  readonly limitPerSecond: number;
  private readonly now: () => number;
  private readonly freeSlots: () => number;
  private readonly letGo: (waiter: W) => void;
  private readonly floorPerSecond: number;
  private tokens: number;
  private refilledAt: number;
  /** The rate set by the last throttle; the rate now is this plus what it has since climbed. */
  private rateAtThrottle: number;
  private throttledAt = -Infinity;
  private readonly waiters = new FifoQueue<W>();
  private timer: NodeJS.Timeout | null = null;

  constructor(options: SubmitRateLimiterOptions<W>) {
    const limitPerSecond = options.limitPerSecond;
    if (!(limitPerSecond > 0)) throw new RangeError(`submits per second must be > 0`);
    this.limitPerSecond = limitPerSecond;
    this.now = options.now ?? (() => performance.now());
    this.freeSlots = options.freeSlots ?? (() => Infinity);
    this.letGo = options.letGo;
    this.floorPerSecond = Math.min(limitPerSecond, Math.max(1, limitPerSecond * FLOOR_SHARE));
    this.rateAtThrottle = limitPerSecond;
    this.tokens = burstOf(limitPerSecond);
    this.refilledAt = this.now();
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
   * Takes a token for a submit that goes now, if nobody waits and there is a token and a window
   * slot: the hot path, no allocation. Otherwise false: wait() with it.
   */
  tryTake(): boolean {
    if (this.waiters.length > 0) return false;
    this.refill(this.now());
    if (this.tokens < 1 || this.freeSlots() <= 0) return false;
    this.tokens -= 1;
    return true;
  }

  /** Queues a submit; letGo gets it, in first-come order, once a token and a slot are there. */
  wait(waiter: W): void {
    this.waiters.push(waiter);
    // A new submit often comes as an answer frees a slot: a good moment to look.
    if (this.waiters.length > 1) this.letWaitersGo();
    if (this.timer === null && this.waiters.length > 0) this.arm();
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

  /** Stops the timer and hands back every waiting submit, in order, for its owner to fail. */
  drain(): W[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.waiters.drain();
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

  /** Lets as many waiters go, in order, as there are tokens and free window slots. */
  private letWaitersGo(): void {
    this.refill(this.now());
    if (this.tokens < 1) return;
    // Counted once: each letGo submits at once, so it is one slot fewer.
    let room = this.freeSlots();
    while (this.tokens >= 1 && room > 0) {
      const waiter = this.waiters.shift();
      if (waiter === undefined) return;
      this.tokens -= 1;
      room -= 1;
      this.letGo(waiter);
    }
  }

  /** One timer, for when the head waiter's token will be there, or to look for room again. */
  private arm(): void {
    const now = this.now();
    this.refill(now);
    const tokenInMs = ((1 - this.tokens) * 1000) / this.rateAt(now);
    const delayMs = this.tokens >= 1 ? ROOM_POLL_MS : Math.ceil(tokenInMs);
    this.timer = setTimeout(this.onTimer, Math.max(1, delayMs));
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    this.letWaitersGo();
    if (this.waiters.length > 0) this.arm();
  };
}

function burstOf(ratePerSecond: number): number {
  return Math.max(1, ratePerSecond * BURST_SECONDS);
}
