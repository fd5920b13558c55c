import { DomainError } from '../errors.js';
import type { Store } from '../store.js';
import { isMessageUuid } from './find-own-message.js';

/**
 * The account a message belongs to, for a platform admin, who reads any account's messages
 * through the same use cases as its owner; 404 when there is no such message.
 */
export async function messageAccountId(store: Store, uuid: string): Promise<number> {
  const message = isMessageUuid(uuid) ? await store.findMessageByUuid(uuid) : null;
  if (!message) throw new DomainError('NOT_FOUND', `No message ${uuid}`);
  return message.accountId;
}
