import { invalidParameter } from '../domain/errors.js';
import { listMessages } from '../domain/messages/list-messages.js';
import type { Message, MessageStore } from '../domain/messages/message-store.js';
import { WINDOW_ORDER_MESSAGE } from './contract/fields.js';
import type { MessageListFilters } from './contract/sms.js';

export interface MessageListPage {
  readonly items: Message[];
  readonly page: number;
  readonly limit: number;
  readonly total: number;
  readonly totalPages: number;
}

/**
 * A page of the message list, for /api/v2 and the console alike: the filters as the one list
 * query (`messageListQuerySchema`) read them, `from` and `to` instants, both inclusive.
 * `accountId` null: every account's (a platform admin's view).
 */
export async function messagePage(
  store: MessageStore,
  accountId: number | null,
  q: MessageListFilters,
): Promise<MessageListPage> {
  if (q.from !== undefined && q.to !== undefined && q.from > q.to) {
    throw invalidParameter(WINDOW_ORDER_MESSAGE);
  }
  const page = await listMessages(store, accountId, {
    status: q.status,
    sender: q.sender || undefined,
    fromMs: q.from,
    toMs: q.to,
    search: q.search || undefined,
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
  });
  return {
    items: page.items,
    page: q.page,
    limit: q.limit,
    total: page.total,
    totalPages: Math.ceil(page.total / q.limit),
  };
}
