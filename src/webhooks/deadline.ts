// One deadline for everything a webhook request does (post-webhook.ts): resolving, connecting,
// the answer's head and the start of its body. It passes at the request's timeout, or earlier
// when the request is cut short.

/** The request's timeout passed. */
export class TimedOut extends Error {}
/** The request was cut short: its process stopped at the end of its drain. */
export class CutShortError extends Error {}

export interface Deadline {
  /** Why the deadline passed (TimedOut, or CutShortError), once it has. */
  readonly expiredWith: Error | undefined;
  /** Calls `listener` once when the deadline passes; returns what stops that. */
  onExpire(listener: (error: Error) => void): () => void;
  /** `work`, or a rejection with the deadline's error when it passes first. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Passes the deadline now, with `error`. */
  expire(error: Error): void;
  stop(): void;
}

/**
 * One timer for the whole call; stop() clears it, so no timer outlives the call. (Not an
 * AbortController: making one was a tenth of a post's CPU, and nothing here takes a signal.)
 */
export function startDeadline(timeoutMs: number): Deadline {
  let expiredWith: Error | undefined;
  const listeners = new Set<(error: Error) => void>();
  const expire = (error: Error) => {
    if (expiredWith) return;
    expiredWith = error;
    clearTimeout(timer);
    for (const listener of listeners) listener(error);
    listeners.clear();
  };
  const timer = setTimeout(() => expire(new TimedOut()), timeoutMs);
  const onExpire = (listener: (error: Error) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    get expiredWith() {
      return expiredWith;
    },
    onExpire,
    expire,
    // A resolver cannot be cancelled: past the deadline its answer is just not waited for.
    race: <T>(work: Promise<T>) =>
      expiredWith
        ? Promise.reject(expiredWith)
        : new Promise<T>((resolve, reject) => {
            const stop = onExpire(reject);
            work.then(
              (value) => {
                stop();
                resolve(value);
              },
              (error: unknown) => {
                stop();
                reject(error);
              },
            );
          }),
    stop: () => {
      clearTimeout(timer);
      listeners.clear();
    },
  };
}
