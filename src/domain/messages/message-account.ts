import type { MessageStore } from './message-store.js';
import { DomainError } from '../errors.js';
import { isMessageUuid } from './find-own-message.js';

/**
 * The account a message belongs to, for a platform admin, who reads any account's messages
 * through the same use cases as its owner; 404 when there is no such message.
 */
export async function messageAccountId(store: MessageStore, uuid: string): Promise<number> {
  const message = isMessageUuid(uuid) ? await store.findMessageByUuid(uuid) : null;
  if (!message) throw new DomainError('NOT_FOUND', `No message ${uuid}`);
  return message.accountId;
}
