import type { Message, MessageListQuery, MessageStore } from './message-store.js';

export interface MessagePage {
  readonly items: Message[];
  readonly total: number;
}

/** The account's messages, most recent first; null: every account's (a platform admin's view). */
export function listMessages(
  store: MessageStore,
  accountId: number | null,
  query: MessageListQuery,
): Promise<MessagePage> {
  return store.listMessages(accountId, query);
}
