import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Account, AccountStore } from './account-store.js';
import type { AccountStatus } from '../statuses.js';
import { requireAccount } from './require-account.js';

/**
 * Suspends or reactivates an account. While suspended its API keys answer 403
 * ACCOUNT_SUSPENDED and its console users cannot act; its data, keys and balance are kept, so
 * reactivating restores everything. Setting the status it already has changes nothing.
 */
export async function setAccountStatus(
  store: Transactor<AccountStore & AuditStore>,
  input: { accountId: number; status: AccountStatus; nowMs: number; actor: AuditActor },
): Promise<{ account: Account; changed: boolean }> {
  return store.transaction(async (tx) => {
    await requireAccount(tx, input.accountId);
    const changed = await tx.setAccountStatus(input.accountId, input.status);
    if (changed) {
      await recordAudit(tx, {
        ...input.actor,
        accountId: input.accountId,
        action: input.status === 'suspended' ? 'account.suspend' : 'account.reactivate',
        targetType: 'account',
        targetId: input.accountId,
        at: input.nowMs,
      });
    }
    return { account: await requireAccount(tx, input.accountId), changed };
  });
}
