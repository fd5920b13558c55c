import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { invalidParameter } from '../errors.js';
import type { Account, AccountSettings, AccountStore } from './account-store.js';
import { requireAccount } from './require-account.js';

/**
 * Sets an account's price per part, rate limit (null: the platform default) and/or low-balance
 * threshold (an admin sets any; an owner only the threshold, through the console). Answers the
 * account before and after, so the change can be recorded as it was. A send already accepted
 * keeps the price it was charged at; the new rate limit applies from the next request.
 */
export async function updateAccountSettings(
  store: Transactor<AccountStore & AuditStore>,
  input: { accountId: number; settings: AccountSettings; nowMs: number; actor: AuditActor },
): Promise<{ before: Account; after: Account }> {
  const { pricePerPart, rateLimitRequests, lowBalanceThreshold } = input.settings;
  if (pricePerPart !== undefined && (!Number.isSafeInteger(pricePerPart) || pricePerPart < 0)) {
    throw invalidParameter(
      `the price per part must be a whole number of 0 or more, not ${pricePerPart}`,
    );
  }
  if (
    rateLimitRequests !== undefined &&
    rateLimitRequests !== null &&
    (!Number.isSafeInteger(rateLimitRequests) || rateLimitRequests < 1)
  ) {
    throw invalidParameter(
      `the rate limit must be a whole number of requests above 0, or null for the default, not ${rateLimitRequests}`,
    );
  }
  if (
    lowBalanceThreshold !== undefined &&
    (!Number.isSafeInteger(lowBalanceThreshold) || lowBalanceThreshold < 0)
  ) {
    throw invalidParameter(
      `the low-balance threshold must be a whole number of credits, 0 (no warning) or more, not ${lowBalanceThreshold}`,
    );
  }
  return store.transaction(async (tx) => {
    const before = await requireAccount(tx, input.accountId);
    const after =
      (await tx.updateAccountSettings(input.accountId, {
        pricePerPart,
        rateLimitRequests,
        lowBalanceThreshold,
      })) ?? before;
    const changes: Record<string, { from: number | null; to: number | null }> = {};
    if (after.pricePerPart !== before.pricePerPart)
      changes.pricePerPart = { from: before.pricePerPart, to: after.pricePerPart };
    if (after.rateLimitRequests !== before.rateLimitRequests)
      changes.rateLimitRequests = { from: before.rateLimitRequests, to: after.rateLimitRequests };
    if (after.lowBalanceThreshold !== before.lowBalanceThreshold)
      changes.lowBalanceThreshold = {
        from: before.lowBalanceThreshold,
        to: after.lowBalanceThreshold,
      };
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, {
        ...input.actor,
        accountId: input.accountId,
        action: 'account.settings',
        targetType: 'account',
        targetId: input.accountId,
        detail: changes,
        at: input.nowMs,
      });
    }
    return { before, after };
  });
}
