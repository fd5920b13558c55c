/** A timer set through `Timers`; clearing it after it fired, or twice, does nothing. */
export interface Timer {
  clear(): void;
}

/**
 * Waiting, as the domain sees it, beside `Clock`: what the scheduler, the dispatcher and its
 * group commits wait on. Tests pass a fake whose timers fire as its clock is advanced
 * (test/support/fake-clock.ts), so no test patches the global `setTimeout`.
 */
export interface Timers {
  /** Calls `callback` once, `delayMs` from now. */
  after(delayMs: number, callback: () => void): Timer;
  /** Calls `callback` every `everyMs` until the timer is cleared. */
  every(everyMs: number, callback: () => void): Timer;
}

/** Resolves `delayMs` from now, on `timers`. */
export function sleep(timers: Timers, delayMs: number): Promise<void> {
  return new Promise((resolve) => timers.after(delayMs, resolve));
}

export const systemTimers: Timers = {
  after(delayMs, callback) {
    const handle = setTimeout(callback, delayMs);
    return { clear: () => clearTimeout(handle) };
  },
  every(everyMs, callback) {
    const handle = setInterval(callback, everyMs);
    return { clear: () => clearInterval(handle) };
  },
};
