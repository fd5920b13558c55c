import type { SenderRequestStore } from './sender-request-store.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { Transactor } from '../transactor.js';
import type { AccountStore } from '../accounts/account-store.js';
import { requireAccount } from '../accounts/require-account.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError, invalidParameter } from '../errors.js';
import type { Sender, SenderStore } from './sender-store.js';

export interface ManageSenderInput {
  readonly senderId: number;
  /** The platform admin acting. */
  readonly actorUserId: number | null;
  readonly ip: string | null;
  readonly nowMs: number;
}

/** Stops an approved sender: /api/v2 refuses to send from it until it is reinstated. */
export function suspendSender(
  store: Transactor<SenderRequestStore & AuditStore>,
  input: ManageSenderInput,
): Promise<Sender> {
  return moveSender(store, input, 'approved', 'suspended');
}

/** Lets a suspended sender send again. */
export function reinstateSender(
  store: Transactor<SenderRequestStore & AuditStore>,
  input: ManageSenderInput,
): Promise<Sender> {
  return moveSender(store, input, 'suspended', 'approved');
}

async function moveSender(
  store: Transactor<SenderRequestStore & AuditStore>,
  input: ManageSenderInput,
  from: 'approved' | 'suspended',
  to: 'approved' | 'suspended',
): Promise<Sender> {
  return store.transaction(async (tx) => {
    const sender = await requireSender(tx, input.senderId);
    const moved = await tx.setSenderStatus({
      senderId: sender.id,
      from: [from],
      to,
      nowMs: input.nowMs,
    });
    if (!moved) {
      throw new DomainError(
        'INVALID_TRANSITION',
        `sender ${sender.name} is ${sender.status}; only an ${from} sender can be made ${to}`,
      );
    }
    await audit(tx, input, sender, to === 'suspended' ? 'sender.suspend' : 'sender.reinstate');
    return (await tx.findSender(sender.id))!;
  });
}

export interface ShareSenderInput extends ManageSenderInput {
  readonly accountId: number;
}

/** Lets another account send from an approved sender; the list of that account shows it. */
export async function shareSender(
  store: Transactor<AccountStore & SenderStore & SenderRequestStore & AuditStore>,
  input: ShareSenderInput,
): Promise<Sender> {
  return store.transaction(async (tx) => {
    const sender = await requireSender(tx, input.senderId);
    if (sender.accountId === input.accountId) {
      throw invalidParameter(
        `account ${input.accountId} owns sender ${sender.name}; share it with other accounts`,
      );
    }
    if (sender.status !== 'approved') {
      throw new DomainError(
        'INVALID_TRANSITION',
        `sender ${sender.name} is ${sender.status}; only an approved sender is shared`,
      );
    }
    await requireAccount(tx, input.accountId);
    await tx.shareSender(sender.id, input.accountId, input.nowMs);
    await audit(tx, input, sender, 'sender.share', { sharedWith: input.accountId });
    return sender;
  });
}

/** Takes a share back: that account can no longer send from the sender. */
export async function unshareSender(
  store: Transactor<SenderRequestStore & AuditStore>,
  input: ShareSenderInput,
): Promise<Sender> {
  return store.transaction(async (tx) => {
    const sender = await requireSender(tx, input.senderId);
    if (!(await tx.unshareSender(sender.id, input.accountId))) {
      throw new DomainError(
        'NOT_FOUND',
        `sender ${sender.name} is not shared with account ${input.accountId}`,
      );
    }
    await audit(tx, input, sender, 'sender.unshare', { sharedWith: input.accountId });
    return sender;
  });
}

/** One audit line for a change to a sender, on the owning account's log. */
function audit(
  store: AuditStore,
  input: ManageSenderInput,
  sender: Sender,
  action: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  return recordAudit(store, {
    actorUserId: input.actorUserId,
    accountId: sender.accountId,
    action,
    targetType: 'sender',
    targetId: sender.id,
    detail: { name: sender.name, ...detail },
    ip: input.ip,
    at: input.nowMs,
  });
}

async function requireSender(store: SenderRequestStore, senderId: number): Promise<Sender> {
  const sender = await store.findSender(senderId);
  if (!sender) throw new DomainError('NOT_FOUND', `sender ${senderId} does not exist`);
  return sender;
}
