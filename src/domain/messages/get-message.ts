import type { RecipientStore } from '../recipients/recipient-store.js';
import type { Message, MessageStore } from './message-store.js';
import { RECIPIENT_STATUSES, type RecipientStatus } from '../statuses.js';
import { findOwnMessage, isMessageUuid } from './find-own-message.js';

export interface MessageDetails {
  readonly message: Message;
  /** Per-status recipient counts; every status is present. */
  readonly counts: ReadonlyMap<RecipientStatus, number>;
  /** True once the send is complete: `drSummary` is shown from then on. */
  readonly complete: boolean;
}

export async function getMessage(
  store: MessageStore & RecipientStore,
  accountId: number,
  uuid: string,
): Promise<MessageDetails> {
  // The counts are read by uuid alongside the message: one round trip, not two.
  const [message, stored] = await Promise.all([
    findOwnMessage(store, accountId, uuid),
    isMessageUuid(uuid) ? store.messageCountsByUuid(uuid) : new Map<RecipientStatus, number>(),
  ]);
  const counts = completeCounts(stored);
  return { message, counts, complete: isComplete(message, counts) };
}

export function completeCounts(
  stored: ReadonlyMap<RecipientStatus, number>,
): Map<RecipientStatus, number> {
  return new Map(RECIPIENT_STATUSES.map((status) => [status, stored.get(status) ?? 0]));
}

/** Sent or failed, or every recipient final. A cancelled message never was sent. */
function isComplete(message: Message, counts: ReadonlyMap<RecipientStatus, number>): boolean {
  if (message.status === 'sent' || message.status === 'failed') return true;
  if (message.status !== 'pending') return false;
  return (counts.get('pending') ?? 0) === 0;
}
