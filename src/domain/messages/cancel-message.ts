import type { Transactor } from '../transactor.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { BalanceWriter } from '../credits/ledger-store.js';
import type { AuditActor } from '../audit/audit-actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { DomainError } from '../errors.js';
import type { Message, MessageStore } from './message-store.js';
import { findOwnMessage } from './find-own-message.js';
import type { WebhookOutboxWriter } from '../webhooks/webhook-store.js';

/**
 * Cancels a scheduled message that has not started and refunds its hold. The status change
 * is a conditional UPDATE (`WHERE status = 'scheduled'`), the same guard the scheduler's
 * release uses, so when the two race exactly one of them changes the row. A person's cancel
 * (`actor`, from the console) is written to the audit log with it, as their send was.
 */
export async function cancelMessage(
  store: Transactor<MessageStore & AuditStore & BalanceWriter & WebhookOutboxWriter>,
  accountId: number,
  uuid: string,
  nowMs: number,
  actor?: AuditActor,
): Promise<Message> {
  return store.transaction(async (tx) => {
    const message = await findOwnMessage(tx, accountId, uuid);
    if (!(await tx.cancelScheduledMessage(message.id, nowMs))) {
      const current = (await tx.findMessageByUuid(uuid)) ?? message;
      throw refusal(current);
    }
    await tx.addWebhookOutbox(
      accountId,
      { kind: 'message.cancelled', payload: { messageId: message.id } },
      nowMs,
    );
    if (message.cost > 0) {
      await tx.changeBalance({
        accountId,
        delta: message.cost,
        reason: 'refund',
        messageId: message.id,
        nowMs,
      });
    }
    if (actor) {
      await recordAudit(tx, {
        ...actor,
        accountId,
        action: 'message.cancel',
        targetType: 'message',
        targetId: uuid,
        detail: { refNo: message.refNo, refunded: message.cost },
        at: nowMs,
      });
    }
    return { ...message, status: 'cancelled', updatedAt: nowMs, completedAt: nowMs };
  });
}

function refusal(message: Message): DomainError {
  if (message.status === 'cancelled') {
    return new DomainError('ALREADY_CANCELLED', 'The message is already cancelled');
  }
  if (message.scheduledAt === null) {
    return new DomainError(
      'NOT_SCHEDULED',
      'Only scheduled messages can be cancelled; this one was sent at once',
    );
  }
  return new DomainError(
    'ALREADY_PROCESSING',
    'The message has started sending and can no longer be cancelled',
  );
}
