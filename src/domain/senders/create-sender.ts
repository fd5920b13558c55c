import type { Transactor } from '../transactor.js';
import type { AccountStore } from '../accounts/account-store.js';
import { requireAccount } from '../accounts/require-account.js';
import { invalidParameter } from '../errors.js';
import type { Sender, SenderStore } from './sender-store.js';
import { SENDER_STATUSES, type SenderStatus } from '../statuses.js';
import { checkSenderName } from './sender-name.js';

export interface CreateSenderInput {
  readonly accountId: number;
  readonly name: string;
  /** Defaults to `pending`: a new name waits for review unless the operator approves it. */
  readonly status?: string;
  /** Accounts that may also send with this name. */
  readonly shareWith?: readonly number[];
  readonly nowMs: number;
}

/**
 * Registers a sender name for an account. Names are unique platform-wide (a carrier shows the
 * name, not the account), so a taken name is refused whoever owns it.
 */
export async function createSender(
  store: Transactor<AccountStore & SenderStore>,
  input: CreateSenderInput,
): Promise<{ sender: Sender; sharedWith: number[] }> {
  const name = checkSenderName(input.name);
  const status = checkStatus(input.status ?? 'pending');
  const sharedWith = [...new Set(input.shareWith ?? [])];
  if (sharedWith.includes(input.accountId)) {
    throw invalidParameter(
      `account ${input.accountId} owns the sender; share it with other accounts only`,
    );
  }

  return store.transaction(async (tx) => {
    await requireAccount(tx, input.accountId);
    for (const accountId of sharedWith) await requireAccount(tx, accountId);
    const taken = await tx.findSenderByName(name);
    if (taken) {
      throw invalidParameter(
        `sender name ${name} is already registered (by account ${taken.accountId}); choose another name`,
      );
    }
    const sender = await tx.createSender({
      accountId: input.accountId,
      name,
      status,
      nowMs: input.nowMs,
    });
    for (const accountId of sharedWith) await tx.shareSender(sender.id, accountId, input.nowMs);
    return { sender, sharedWith };
  });
}

function checkStatus(status: string): SenderStatus {
  if (!(SENDER_STATUSES as readonly string[]).includes(status)) {
    throw invalidParameter(
      `unknown sender status ${status}; use one of ${SENDER_STATUSES.join(', ')}`,
    );
  }
  return status as SenderStatus;
}
