import type { CompactRecipientList } from '../recipients/recipient-store.js';
import type { MessageStatus, RecipientStatus } from '../statuses.js';

export interface Message {
  readonly id: number;
  readonly uuid: string;
  readonly accountId: number;
  readonly refNo: string;
  readonly sender: string;
  readonly content: string;
  readonly parts: number;
  readonly status: MessageStatus;
  readonly scheduledAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly completedAt: number | null;
  readonly requestedCount: number;
  readonly duplicateCount: number;
  readonly recipientTotal: number;
  readonly validCount: number;
  readonly invalidCount: number;
  readonly blockedCount: number;
  readonly chargedCount: number;
  readonly pricePerPart: number;
  readonly cost: number;
  readonly materialisedUpto: number;
}

/** A message as the accept stores it: with its key and compact list, before any delivery. */
export interface NewMessage extends Omit<Message, 'id' | 'updatedAt' | 'materialisedUpto'> {
  readonly apiKeyId: number | null;
  readonly recipients: CompactRecipientList;
}

export interface MessageListQuery {
  readonly status?: MessageStatus;
  readonly sender?: string;
  readonly fromMs?: number;
  readonly toMs?: number;
  readonly search?: string;
  readonly offset: number;
  readonly limit: number;
}

/** Messages: accepted with their compact list and counters, listed, cancelled, released. */
export interface MessageStore {
  nextRefNo(accountId: number): Promise<number>;
  insertMessage(message: NewMessage): Promise<number>;
  /** The per-status counters as accepted (`pending`, `blocked`, `invalid`). */
  setMessageCounts(messageId: number, counts: ReadonlyMap<RecipientStatus, number>): Promise<void>;
  findMessageByUuid(uuid: string): Promise<Message | null>;
  /** One account's messages, or every account's (null: an admin's view), newest first. */
  listMessages(
    accountId: number | null,
    query: MessageListQuery,
  ): Promise<{ items: Message[]; total: number }>;
  /** scheduled → cancelled, only if still scheduled; true when this call made the change. */
  cancelScheduledMessage(messageId: number, nowMs: number): Promise<boolean>;
  /** scheduled → pending for every message due at `nowMs`; returns their ids. */
  releaseDueMessages(nowMs: number): Promise<{ id: number; accountId: number }[]>;
  /** The oldest messages whose recipient rows are not all written yet. */
  unmaterialisedMessages(
    limit: number,
  ): Promise<Pick<Message, 'id' | 'recipientTotal' | 'materialisedUpto' | 'createdAt'>[]>;
}
