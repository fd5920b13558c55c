/**
 * Fixed-window request counter per API key, in this process. Several API processes each
 * allow the limit (documented); a shared limiter is a later step.
 */
export class RateLimiter {
  private readonly windows = new Map<number, { startMs: number; count: number }>();

  constructor(
    private readonly defaultRequests: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one request; says whether it is allowed and what the headers should show. */
  take(keyId: number, limitOverride: number | null, nowMs: number) {
    const limit = limitOverride ?? this.defaultRequests;
    let window = this.windows.get(keyId);
    if (!window || nowMs - window.startMs >= this.windowMs) {
      window = { startMs: nowMs, count: 0 };
      this.windows.set(keyId, window);
      if (this.windows.size > 100_000) this.prune(nowMs);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.startMs + this.windowMs - nowMs) / 1000));
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    window.count += 1;
    return { allowed: true, limit, remaining: limit - window.count, resetSeconds };
  }

  private prune(nowMs: number): void {
    for (const [key, window] of this.windows)
      if (nowMs - window.startMs >= this.windowMs) this.windows.delete(key);
  }
}
