import { requireAccount } from '../accounts/require-account.js';
import { DomainError, invalidParameter } from '../errors.js';
import type { Store } from '../ports.js';
import { normalizeMsisdn } from '../recipients/msisdn.js';

/** The blocklist scope that applies to every account. */
export const PLATFORM_SCOPE = 0;

/**
 * Adds numbers that are never sent to: for one account, or platform-wide with
 * {@link PLATFORM_SCOPE}. All or nothing: one malformed number refuses the whole request, so an
 * operator's typo never leaves a number silently unblocked. Returns how many were new.
 */
export async function addToBlocklist(
  store: Store,
  input: { scope: number; numbers: readonly string[]; nowMs: number },
): Promise<{ scope: number; added: number }> {
  if (input.numbers.length === 0) throw invalidParameter('give at least one number to block');
  const normalised = input.numbers.map((text) => normalizeMsisdn(text.trim()));
  const invalid = input.numbers.filter((_text, i) => normalised[i] === null);
  if (invalid.length > 0) {
    throw new DomainError(
      'INVALID_NUMBER',
      `not valid numbers: ${invalid.join(', ')}; write them as 66XXXXXXXXX or 0XXXXXXXXX (nothing was added)`,
    );
  }
  if (input.scope !== PLATFORM_SCOPE) await requireAccount(store, input.scope);
  const numbers = [...new Set(normalised as string[])];
  const added = await store.addToBlocklist(input.scope, numbers, input.nowMs);
  return { scope: input.scope, added };
}
