import type { Transactor } from '../transactor.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { BalanceWriter } from './ledger-store.js';
import { invalidParameter } from '../errors.js';
import { requireAccount } from '../accounts/require-account.js';

/** Tops up an account: the balance and its 'top-up' ledger row change together. */
export async function addCredits(
  store: Transactor<AccountStore & BalanceWriter>,
  input: { accountId: number; amount: number; note?: string; nowMs: number },
): Promise<{ accountId: number; balance: number }> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw invalidParameter(`the amount must be a whole number above 0, not ${input.amount}`);
  }
  return store.transaction(async (tx) => {
    await requireAccount(tx, input.accountId);
    const balance = await tx.changeBalance({
      accountId: input.accountId,
      delta: input.amount,
      reason: 'top-up',
      note: input.note ?? null,
      nowMs: input.nowMs,
    });
    // A positive delta always passes the balance guard; null would mean the account vanished.
    if (balance === null) throw new Error(`account ${input.accountId} could not be credited`);
    return { accountId: input.accountId, balance };
  });
}
