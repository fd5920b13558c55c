import type { MessageStore } from '../domain/messages/message-store.js';
import type { Transactor } from '../domain/transactor.js';
import type { WebhookOutboxWriter } from '../domain/webhooks/webhook-store.js';

/**
 * Moves every scheduled message whose time has come to `pending`, with a `message.released`
 * webhook outbox row for each, in one transaction. Safe to run in any number of processes: the
 * UPDATE only takes rows still `scheduled`, the same guard cancel uses.
 */
export function releaseDueMessages(
  store: Transactor<MessageStore & WebhookOutboxWriter>,
  nowMs: number,
): Promise<number[]> {
  return store.transaction(async (tx) => {
    const released = await tx.releaseDueMessages(nowMs);
    for (const { id, accountId } of released) {
      await tx.addWebhookOutbox(
        accountId,
        { kind: 'message.released', payload: { messageId: id } },
        nowMs,
      );
    }
    return released.map(({ id }) => id);
  });
}
