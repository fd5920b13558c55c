/** Throttling shared by every process (attempt-throttle.ts). */
export interface AttemptStore {
  /**
   * Counts one attempt of `scope` in one statement, opening a new window of `windowMs` when
   * none is open at `nowMs`; answers the attempts in the window, this one included, and when it
   * ends. Concurrent callers each get a count of their own.
   */
  countAttempt(
    scope: string,
    windowMs: number,
    nowMs: number,
  ): Promise<{ attempts: number; expiresAt: number }>;
  /** Takes one attempt back from the window ending at `expiresAt`, if that window is still open. */
  uncountAttempt(scope: string, expiresAt: number): Promise<void>;
  /** Forgets the scope's attempts. */
  clearAttempts(scope: string): Promise<void>;
  /** Deletes at most `limit` windows ended by `nowMs`; answers how many. */
  purgeAttempts(nowMs: number, limit: number): Promise<number>;
}
