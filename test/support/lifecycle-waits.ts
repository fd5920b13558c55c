import type {
  LifecycleEventMap,
  LifecycleEventName,
  LifecycleEvents,
} from '../../src/domain/lifecycle-events.js';

/** How long a test waits for what it was promised before it fails rather than hangs. */
const GUARD_MS = 30_000;

/**
 * The next `name` event that `matches`, as `events.once`; fails naming `what` when none came
 * within `guardMs` of real time (a guard against a hang: nothing is polled).
 */
export async function nextEvent<K extends LifecycleEventName>(
  events: LifecycleEvents,
  name: K,
  matches: (event: LifecycleEventMap[K]) => boolean,
  what: string,
  guardMs = GUARD_MS,
): Promise<LifecycleEventMap[K]> {
  const guard = AbortSignal.timeout(guardMs);
  try {
    return await events.once(name, matches, guard);
  } catch (error) {
    if (guard.aborted) throw new Error(`no ${name} event for ${what} within ${guardMs} ms`);
    throw error;
  }
}

/** The events after which what the store holds of a message may have changed. */
const CHANGES: readonly LifecycleEventName[] = [
  'messagesReleased',
  'recipientsMaterialised',
  'outcomesStored',
  'receiptsStored',
  'swept',
  'messageComplete',
];

/** Checks of one wait start at least this far apart, however fast the events come. */
const SPACING_MS = 25;

/**
 * Resolves with what `check` returns once it is neither undefined nor false: checked at once,
 * then again after each event that changes what the store holds (one check at a time, at most
 * one every SPACING_MS; events meanwhile make one more). Fails naming `what` after `guardMs` of
 * real time.
 */
export function whenTold<T>(
  events: LifecycleEvents,
  check: () => Promise<T | undefined | false>,
  what: string,
  guardMs = GUARD_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let checking = false;
    let again = false;
    let done = false;
    let lastStart = -Infinity;
    let spaced: NodeJS.Timeout | undefined;
    const offs = CHANGES.map((name) => events.on(name, () => void look()));
    const guard = setTimeout(
      () => finish(() => reject(new Error(`gave up waiting for ${what} after ${guardMs} ms`))),
      guardMs,
    );
    function finish(settle: () => void): void {
      if (done) return;
      done = true;
      for (const off of offs) off();
      clearTimeout(guard);
      clearTimeout(spaced);
      settle();
    }
    async function look(): Promise<void> {
      if (checking || spaced) {
        again = true;
        return;
      }
      const waitMs = lastStart + SPACING_MS - performance.now();
      if (waitMs > 0) {
        spaced = setTimeout(() => {
          spaced = undefined;
          void look();
        }, waitMs);
        return;
      }
      checking = true;
      again = false;
      lastStart = performance.now();
      try {
        if (done) return;
        const value = await check();
        if (value !== undefined && value !== false) return finish(() => resolve(value));
      } catch (error) {
        return finish(() => reject(error as Error));
      } finally {
        checking = false;
      }
      if (again) void look();
    }
    void look();
  });
}
