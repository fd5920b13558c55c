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

/**
 * Failed API-key authentications per client address, in fixed windows, in this process. Past
 * `limit` failures in a window the address is refused before its key is looked up, so a flood
 * of well-formed made-up keys costs no query. Successes are not counted and forgive nothing.
 * At most `maxAddresses` windows are kept: past that, expired ones go, then the oldest.
 */
export class FailedAuthentications {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    private readonly maxAddresses = 100_000,
  ) {}

  /** Seconds until `address` may try again, or null when it may try now. */
  refusedFor(address: string, nowMs: number): number | null {
    const window = this.windows.get(address);
    if (!window || nowMs - window.startMs >= this.windowMs || window.count < this.limit)
      return null;
    return Math.max(1, Math.ceil((window.startMs + this.windowMs - nowMs) / 1000));
  }

  /** Counts one failed authentication from `address`. */
  note(address: string, nowMs: number): void {
    let window = this.windows.get(address);
    if (!window || nowMs - window.startMs >= this.windowMs) {
      this.windows.delete(address);
      window = { startMs: nowMs, count: 0 };
      this.windows.set(address, window);
      if (this.windows.size > this.maxAddresses) this.prune(nowMs);
    }
    window.count += 1;
  }

  private prune(nowMs: number): void {
    for (const [address, window] of this.windows)
      if (nowMs - window.startMs >= this.windowMs) this.windows.delete(address);
    // Insertion order is the order windows began: the oldest go first.
    for (const address of this.windows.keys()) {
      if (this.windows.size <= this.maxAddresses) break;
      this.windows.delete(address);
    }
  }
}
