import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { BalanceWriter } from '../credits/ledger-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { invalidParameter } from '../errors.js';
import type { Account, AccountStore } from './account-store.js';

export interface CreateAccountInput {
  readonly name: string;
  /** Opening credits, written to the ledger as a top-up. */
  readonly credits?: number;
  readonly pricePerPart?: number;
  readonly nowMs: number;
  readonly actor: AuditActor;
}

/**
 * Creates an account and, when `credits` > 0, its opening top-up, in one transaction so the
 * balance equals the ledger's sum from the first moment.
 */
export async function createAccount(
  store: Transactor<AccountStore & AuditStore & BalanceWriter>,
  input: CreateAccountInput,
): Promise<Account> {
  const name = input.name.trim();
  if (name.length === 0) throw invalidParameter('the account name must not be empty');
  const credits = input.credits ?? 0;
  checkNonNegativeInteger('credits', credits);
  if (input.pricePerPart !== undefined)
    checkNonNegativeInteger('price per part', input.pricePerPart);

  return store.transaction(async (tx) => {
    const account = await tx.createAccount({
      name,
      pricePerPart: input.pricePerPart,
      nowMs: input.nowMs,
    });
    await recordAudit(tx, {
      ...input.actor,
      accountId: account.id,
      action: 'account.create',
      targetType: 'account',
      targetId: account.id,
      detail: { name, credits, pricePerPart: account.pricePerPart },
      at: input.nowMs,
    });
    if (credits === 0) return account;
    const balance = await tx.changeBalance({
      accountId: account.id,
      delta: credits,
      reason: 'top-up',
      note: 'opening credits',
      nowMs: input.nowMs,
    });
    return { ...account, balance: balance ?? account.balance };
  });
}

function checkNonNegativeInteger(label: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw invalidParameter(`${label} must be a whole number of 0 or more, not ${value}`);
  }
}
