import { DomainError } from '../errors.js';
import type { Message, Store } from '../ports.js';

/** A message by uuid: 404 when there is none, 403 when it is another account's. */
export async function findOwnMessage(store: Store, accountId: number, uuid: string): Promise<Message> {
  const message = await store.findMessageByUuid(uuid);
  if (!message) throw new DomainError('NOT_FOUND', `No message ${uuid}`);
  if (message.accountId !== accountId) throw new DomainError('FORBIDDEN', `Message ${uuid} belongs to another account`);
  return message;
}
