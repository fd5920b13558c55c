import { setTimeout as delay } from 'node:timers/promises';

/**
 * Polls `condition` every 20 ms until it holds; rejects once `timeoutMs` has passed, with
 * `progress()` in the message. For state another process changes and nothing announces (our
 * SMSC's counters, Kannel's status page): a condition with a deadline, never a fixed wait.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  progress: () => string,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline)
      throw new Error(`not done within ${timeoutMs} ms: ${progress()}`);
    await delay(20);
  }
}
