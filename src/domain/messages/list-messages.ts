import type { Message, MessageListQuery, Store } from '../ports.js';

export interface MessagePage {
  readonly items: Message[];
  readonly total: number;
}

/** The account's messages, most recent first. */
export function listMessages(
  store: Store,
  accountId: number,
  query: MessageListQuery,
): Promise<MessagePage> {
  return store.listMessages(accountId, query);
}
