import type { Transactor } from '../transactor.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { BalanceWriter } from './ledger-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import { requireAccount } from '../accounts/require-account.js';
import { countCharacters } from '../limits.js';

export interface CreditAdjustment {
  readonly accountId: number;
  /** Credits to grant (above 0) or deduct (below 0). */
  readonly amount: number;
  /** Why: kept on the ledger row, where the account's owner sees it. */
  readonly note: string;
  readonly nowMs: number;
  readonly actor: AuditActor;
}

export const MAX_NOTE_LENGTH = 500;

/**
 * An admin's grant (a 'top-up' row) or deduction (an 'adjustment' row) with a note. It goes
 * through the transaction's changeBalance like every balance change, so the balance and its
 * ledger row change together; a deduction the balance does not cover changes nothing and
 * answers INSUFFICIENT_CREDITS.
 */
export async function adjustCredits(
  store: Transactor<AccountStore & AuditStore & BalanceWriter>,
  input: CreditAdjustment,
): Promise<{ accountId: number; balance: number }> {
  const { accountId, amount, nowMs } = input;
  if (!Number.isSafeInteger(amount) || amount === 0) {
    throw invalidParameter(`the amount must be a whole number other than 0, not ${amount}`);
  }
  const note = input.note.trim();
  if (note.length === 0) throw invalidParameter('say why in the note: it must not be empty');
  // The note is shown to the owner and kept in the audit log, which never holds a key.
  if (/nok_[a-z2-7]{12}_/.test(note)) {
    throw invalidParameter('the note must not hold an API key: name the key by its prefix');
  }
  if (countCharacters(note) > MAX_NOTE_LENGTH) {
    throw invalidParameter(`the note is at most ${MAX_NOTE_LENGTH} characters`);
  }
  return store.transaction(async (tx) => {
    const account = await requireAccount(tx, accountId);
    const balance = await tx.changeBalance({
      accountId,
      delta: amount,
      reason: amount > 0 ? 'top-up' : 'adjustment',
      note,
      nowMs,
    });
    if (balance === null) {
      throw new DomainError(
        'INSUFFICIENT_CREDITS',
        `Cannot deduct ${-amount} credits: the balance is ${account.balance}, and it never goes below 0`,
      );
    }
    await recordAudit(tx, {
      ...input.actor,
      accountId,
      action: amount > 0 ? 'credits.grant' : 'credits.deduct',
      targetType: 'account',
      targetId: accountId,
      detail: { amount: Math.abs(amount), note, balanceAfter: balance },
      at: nowMs,
    });
    return { accountId, balance };
  });
}
