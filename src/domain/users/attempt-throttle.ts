import type { AttemptStore } from './attempt-store.js';

/** A scope an attempt is counted in (`ip:<address>`, `user:<email>`…) and its limit per window. */
export interface ThrottleScope {
  readonly scope: string;
  readonly limit: number;
}

/** An attempt counted in its scopes, to give back when it turns out not to be a failure. */
export interface CountedAttempt {
  readonly scopes: readonly { readonly scope: string; readonly expiresAt: number }[];
}

/** Why an attempt was refused: the scope at its limit, and whether this is its first refusal. */
export interface RefusedAttempt {
  readonly scope: string;
  /** The first attempt refused in this scope's window; later ones in it are the same story. */
  readonly firstInWindow: boolean;
}

type Counter = Pick<AttemptStore, 'countAttempt' | 'uncountAttempt'>;

/**
 * Counts an attempt in each scope, in order, before it is checked (docs/adr/0032): each count
 * is one statement, so concurrent attempts each take a place of their own and no more than
 * `limit` attempts of a scope are ever checked in one window, however many race. Past a
 * scope's limit the attempt is refused: it stays counted in that scope (so the first refusal
 * of a window is known) and is given back to the scopes counted before it.
 */
export async function countAttempt(
  store: Counter,
  scopes: readonly ThrottleScope[],
  windowMs: number,
  nowMs: number,
): Promise<
  { counted: CountedAttempt; refused: null } | { counted: null; refused: RefusedAttempt }
> {
  const counted: { scope: string; expiresAt: number }[] = [];
  for (const { scope, limit } of scopes) {
    const { attempts, expiresAt } = await store.countAttempt(scope, windowMs, nowMs);
    if (attempts > limit) {
      await giveBack(store, { scopes: counted });
      return { counted: null, refused: { scope, firstInWindow: attempts === limit + 1 } };
    }
    counted.push({ scope, expiresAt });
  }
  return { counted: { scopes: counted }, refused: null };
}

/** Gives an attempt back to its scopes: it was not a failure (a success, or asked for more). */
export async function giveBack(store: Counter, attempt: CountedAttempt): Promise<void> {
  for (const { scope, expiresAt } of attempt.scopes) await store.uncountAttempt(scope, expiresAt);
}
