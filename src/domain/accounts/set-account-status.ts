import type { Account, Store } from '../ports.js';
import type { AccountStatus } from '../statuses.js';
import { requireAccount } from './require-account.js';

/**
 * Suspends or reactivates an account. While suspended its API keys answer 403
 * ACCOUNT_SUSPENDED and its console users cannot act; its data, keys and balance are kept, so
 * reactivating restores everything. Setting the status it already has changes nothing.
 */
export async function setAccountStatus(
  store: Store,
  input: { accountId: number; status: AccountStatus },
): Promise<{ account: Account; changed: boolean }> {
  return store.transaction(async (tx) => {
    await requireAccount(tx, input.accountId);
    const changed = await tx.setAccountStatus(input.accountId, input.status);
    return { account: await requireAccount(tx, input.accountId), changed };
  });
}
