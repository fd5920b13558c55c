import { DomainError } from '../errors.js';
import type { Message, MessageStore } from './message-store.js';

// The shape randomUUID gives; anything else names no message (and is never sent to the database).
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `uuid` can name a message at all; reads keyed by anything else are not made. */
export function isMessageUuid(uuid: string): boolean {
  return UUID_SHAPE.test(uuid);
}

/** A message by uuid: 404 when there is none, 403 when it is another account's. */
export async function findOwnMessage(
  store: MessageStore,
  accountId: number,
  uuid: string,
): Promise<Message> {
  const message = isMessageUuid(uuid) ? await store.findMessageByUuid(uuid) : null;
  if (!message) throw new DomainError('NOT_FOUND', `No message ${uuid}`);
  if (message.accountId !== accountId)
    throw new DomainError('FORBIDDEN', `Message ${uuid} belongs to another account`);
  return message;
}
