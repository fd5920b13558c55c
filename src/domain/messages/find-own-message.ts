import { DomainError } from '../errors.js';
import type { Message, RecipientRecord, Store } from '../ports.js';
import type { RecipientStatus } from '../statuses.js';

// The shape randomUUID gives; anything else names no message (and is never sent to the database).
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `uuid` can name a message at all; reads keyed by anything else are not made. */
export function isMessageUuid(uuid: string): boolean {
  return UUID_SHAPE.test(uuid);
}

/** A message by uuid: 404 when there is none, 403 when it is another account's. */
export async function findOwnMessage(
  store: Store,
  accountId: number,
  uuid: string,
): Promise<Message> {
  const message = isMessageUuid(uuid) ? await store.findMessageByUuid(uuid) : null;
  return requireOwn(message, accountId, uuid);
}

export interface OwnMessageView {
  readonly message: Message;
  readonly counts: ReadonlyMap<RecipientStatus, number>;
  /** Up to `rowLimit` rows after `afterSeq`, as far as they are materialised. */
  readonly rows: RecipientRecord[];
}

/**
 * A message with its counts and a page of its rows, read in one round trip; the same 404 and
 * 403 as `findOwnMessage`, checked before anything read is handed out.
 */
export async function viewOwnMessage(
  store: Store,
  accountId: number,
  uuid: string,
  page: { afterSeq: number; rowLimit: number } = { afterSeq: 0, rowLimit: 0 },
): Promise<OwnMessageView> {
  const view = isMessageUuid(uuid)
    ? await store.messageViewByUuid(uuid, page.afterSeq, page.rowLimit)
    : null;
  requireOwn(view?.message ?? null, accountId, uuid);
  return view!;
}

function requireOwn(message: Message | null, accountId: number, uuid: string): Message {
  if (!message) throw new DomainError('NOT_FOUND', `No message ${uuid}`);
  if (message.accountId !== accountId)
    throw new DomainError('FORBIDDEN', `Message ${uuid} belongs to another account`);
  return message;
}
