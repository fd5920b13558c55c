import type { DeliveryState } from './webhook-store.js';

/**
 * How long after each failed attempt the next one comes (docs/adr/0049): at once, then 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, and every 10 h after that, until the retry window
 * (counted from the event) is over. Each wait is moved by up to a tenth either way, so that the
 * retries of many deliveries that failed together do not come back together.
 */
export const RETRY_DELAYS_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

const JITTER = 0.1;

export interface NextAttempt {
  readonly state: Exclude<DeliveryState, 'delivered'>;
  readonly nextAttemptAt: number;
}

/**
 * After a failed attempt (the `attempts`-th): when the next one is due, no sooner than the
 * target's Retry-After, or `failed` when it would fall past the window.
 */
export function nextAttempt(input: {
  readonly attempts: number;
  readonly nowMs: number;
  readonly eventAt: number;
  readonly windowMs: number;
  readonly retryAfterMs: number | null;
  /** A number in [0, 1). */
  readonly random: number;
}): NextAttempt {
  const { attempts, nowMs, eventAt, windowMs, retryAfterMs, random } = input;
  const base = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length - 1)]!;
  const jittered = Math.round(base * (1 + JITTER * (2 * random - 1)));
  const delay = Math.max(jittered, retryAfterMs ?? 0);
  const nextAttemptAt = nowMs + delay;
  if (nextAttemptAt > eventAt + windowMs) return { state: 'failed', nextAttemptAt: nowMs };
  return { state: 'pending', nextAttemptAt };
}
