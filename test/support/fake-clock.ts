import type { Clock } from '../../src/domain/clock.js';
import type { Timer, Timers } from '../../src/domain/timers.js';

interface Pending {
  at: number;
  readonly order: number;
  readonly everyMs: number | null;
  readonly callback: () => void;
}

/**
 * Time that moves only when a test moves it: `now()` and timers. A timer fires during the
 * `advance` that reaches its time, in the order timers fall due (those due together in the
 * order they were set), with the clock at its time; a timer set by one that fires falls due in
 * the same `advance` when its time is within it.
 */
export class FakeClock implements Clock, Timers {
  readonly #pending = new Set<Pending>();
  #set = 0;

  constructor(private ms = Date.parse('2026-11-22T12:00:00Z')) {}

  now(): number {
    return this.ms;
  }

  after(delayMs: number, callback: () => void): Timer {
    return this.#add({ at: this.ms + Math.max(0, delayMs), everyMs: null, callback });
  }

  every(everyMs: number, callback: () => void): Timer {
    if (!(everyMs > 0)) throw new RangeError(`a repeating timer needs a period, not ${everyMs}`);
    return this.#add({ at: this.ms + everyMs, everyMs, callback });
  }

  /** Timers set and not yet fired (once) or cleared. */
  get pendingTimers(): number {
    return this.#pending.size;
  }

  /** Timers set so far, fired or not. */
  get timersSet(): number {
    return this.#set;
  }

  /** Moves time on by `ms` (0: fires the timers due now), firing what falls due on the way. */
  advance(ms: number): void {
    const until = this.ms + ms;
    for (;;) {
      let next: Pending | undefined;
      for (const p of this.#pending) {
        if (p.at > until) continue;
        if (!next || p.at < next.at || (p.at === next.at && p.order < next.order)) next = p;
      }
      if (!next) break;
      this.ms = Math.max(this.ms, next.at);
      if (next.everyMs === null) this.#pending.delete(next);
      else next.at += next.everyMs;
      next.callback();
    }
    this.ms = until;
  }

  #add(fields: Omit<Pending, 'order'>): Timer {
    const pending: Pending = { ...fields, order: this.#set++ };
    this.#pending.add(pending);
    return { clear: () => this.#pending.delete(pending) };
  }
}
