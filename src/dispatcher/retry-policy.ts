export interface RetryPolicy {
  /** Wait after a first transient failure; later waits grow with the time already spent. */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Past this long since its first failure, a recipient is `expired`. */
  readonly windowMs: number;
}

/**
 * When a recipient whose part was refused for now is tried again, or null when its retry window
 * is over. The wait is the time already spent since the first failure (so waits double), within
 * [initialDelayMs, maxDelayMs], and never past the window's end.
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  firstFailureAt: number | null,
  nowMs: number,
): number | null {
  const since = firstFailureAt ?? nowMs;
  const windowEnd = since + policy.windowMs;
  if (nowMs >= windowEnd) return null;
  const delay = Math.min(policy.maxDelayMs, Math.max(policy.initialDelayMs, nowMs - since));
  return Math.min(nowMs + delay, windowEnd);
}
