import type { RecipientStore } from '../recipients/recipient-store.js';
import type { Message, MessageStore } from './message-store.js';
import { RECIPIENT_STATUSES, type MessageStatus, type RecipientStatus } from '../statuses.js';
import { shownStatus } from '../recipients/shown-status.js';
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
  const counts = completeCounts(stored, message.status);
  return { message, counts, complete: isComplete(message, counts) };
}

/**
 * Every status's count, in the order of RECIPIENT_STATUSES, as the message's recipients read
 * (`shownStatus`: a cancelled message's waiting recipients count as failed).
 */
export function completeCounts(
  stored: ReadonlyMap<RecipientStatus, number>,
  messageStatus: MessageStatus,
): Map<RecipientStatus, number> {
  const counts = new Map<RecipientStatus, number>(RECIPIENT_STATUSES.map((status) => [status, 0]));
  for (const [status, count] of stored) {
    const shown = shownStatus(messageStatus, status);
    counts.set(shown, (counts.get(shown) ?? 0) + count);
  }
  return counts;
}

/** Sent or failed, or every recipient final. A cancelled message never was sent. */
function isComplete(message: Message, counts: ReadonlyMap<RecipientStatus, number>): boolean {
  if (message.status === 'sent' || message.status === 'failed') return true;
  if (message.status !== 'pending') return false;
  return (counts.get('pending') ?? 0) === 0;
}
