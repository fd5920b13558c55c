import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getMessage, type MessageDetails } from '../../domain/messages/get-message.js';
import type { Message } from '../../domain/messages/message-store.js';
import type { Store } from '../../domain/store.js';
import type { CompactListCache } from '../../domain/recipients/compact-list-cache.js';
import { listRecipients } from '../../domain/recipients/list-recipients.js';
import { RECIPIENT_STATUSES, type RecipientStatus } from '../../domain/statuses.js';
import type { MessageListFilters } from '../contract/sms.js';
import { messagePage } from '../message-list.js';
import { presentRecipient, presentRecipientCounts } from '../presenters.js';
import type {
  Message as MessageBody,
  MessageDetail,
  MessageList,
  RecipientPage,
  StatusCounts,
} from './contract/messages.js';

/*
 * What the customer's message routes and the admin's share: each reads through the same use
 * cases as /api/v2 (list-messages, get-message, list-recipients) for the account it is given.
 */

const iso = (ms: number) => new Date(ms).toISOString();

export function presentConsoleMessage(message: Message): MessageBody {
  return {
    uuid: message.uuid,
    refNo: message.refNo,
    accountId: message.accountId,
    sender: message.sender,
    content: message.content,
    parts: message.parts,
    status: message.status,
    scheduledTime: message.scheduledAt === null ? null : iso(message.scheduledAt),
    createdAt: iso(message.createdAt),
    completedAt: message.completedAt === null ? null : iso(message.completedAt),
    recipients: presentRecipientCounts(message),
    creditsPerPart: message.pricePerPart,
    cost: message.cost,
  };
}

/** A page of messages, read as /api/v2 reads its list (`messagePage`). */
export async function consoleMessagePage(
  store: Store,
  accountId: number | null,
  filters: MessageListFilters,
): Promise<MessageList> {
  const { items, ...paging } = await messagePage(store, accountId, filters);
  return { ...paging, data: items.map(presentConsoleMessage) };
}

/** Nothing about the message changes any more: a page watching it can stop asking. */
function isFinal(details: MessageDetails): boolean {
  const { status } = details.message;
  if (status === 'cancelled') return true;
  if (status === 'scheduled' || status === 'pending') return false;
  return (details.counts.get('pending') ?? 0) === 0;
}

/** Every status's count, in the one fixed order of RECIPIENT_STATUSES, whatever the map's. */
function countsOf(counts: ReadonlyMap<RecipientStatus, number>): StatusCounts {
  return Object.fromEntries(
    RECIPIENT_STATUSES.map((status) => [status, counts.get(status) ?? 0]),
  ) as StatusCounts;
}

/**
 * A version of a body: a digest of everything it says, keys and values in the order they are
 * built. Two bodies share a version only when they say the same thing.
 */
function versionOf(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url')}"`;
}

/**
 * One message with its live counts, answered as a version: the ETag is a digest of the body
 * itself (`versionOf`), so whatever the page shows changes it, and a page that asks again with
 * `If-None-Match` while nothing moved gets a 304 with no body. The counters are rows kept in
 * the same transaction as each status change (DESIGN §3), so the check reads two rows by key
 * and never counts recipients.
 */
export async function messageDetail(
  store: Store,
  accountId: number,
  uuid: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<MessageDetail | FastifyReply> {
  const details = await getMessage(store, accountId, uuid);
  const body: MessageDetail = {
    ...presentConsoleMessage(details.message),
    counts: countsOf(details.counts),
    ...(details.complete ? { drSummary: countsOf(details.counts) } : {}),
    final: isFinal(details),
  };
  const etag = versionOf(body);
  // The browser revalidates on every read (no-cache) and keeps the body for its 304s.
  reply.header('cache-control', 'private, no-cache');
  reply.header('etag', etag);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return body;
}

/** One page of recipients by cursor (the /api/v2 use case, `after` always given). */
export async function recipientPage(
  store: Store,
  compactLists: CompactListCache,
  accountId: number,
  uuid: string,
  q: { after: number; limit: number; status?: RecipientStatus; search?: string },
): Promise<RecipientPage> {
  const page = await listRecipients(store, compactLists, accountId, uuid, {
    after: q.after,
    limit: q.limit,
    status: q.status,
    search: q.search || undefined,
  });
  return {
    data: page.items.map(presentRecipient),
    nextCursor: page.nextCursor ?? q.after,
    hasMore: page.hasMore ?? false,
  };
}
