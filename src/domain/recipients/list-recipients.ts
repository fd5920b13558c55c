import type { RecipientQuery, RecipientRecord, Store } from '../ports.js';
import { completeCounts } from '../messages/get-message.js';
import { findOwnMessage } from '../messages/find-own-message.js';
import type { RecipientStatus } from '../statuses.js';
import type { CompactListCache } from './compact-list-cache.js';
import { scanCompactList } from './compact-list.js';
import { normalizeMsisdn } from './msisdn.js';

export interface RecipientPageQuery extends RecipientQuery {
  /** Cursor: the last seq already seen; 0 for the first page. Absent: first page with `total`. */
  readonly after?: number;
  readonly limit: number;
}

export interface RecipientPage {
  readonly items: RecipientRecord[];
  readonly summary: ReadonlyMap<RecipientStatus, number>;
  readonly total?: number;
  readonly nextCursor?: number;
  readonly hasMore?: boolean;
}

/**
 * One page of a message's recipients by seq. Rows exist up to the message's
 * `materialisedUpto`; beyond it the page continues from the compact list as accepted, so
 * pages, totals, filters and search are complete from the moment of accept.
 */
export async function listRecipients(
  store: Store,
  cache: CompactListCache,
  accountId: number,
  uuid: string,
  query: RecipientPageQuery,
): Promise<RecipientPage> {
  const message = await findOwnMessage(store, accountId, uuid);
  const summary = completeCounts(await store.messageCounts(message.id));
  const filter: RecipientQuery = { status: query.status, search: searchDigits(query.search) };
  const upto = message.materialisedUpto;
  const after = query.after ?? 0;
  const wanted = query.limit + 1;

  const items =
    after < upto
      ? await store.recipientRows(message.id, {
          ...filter,
          afterSeq: after,
          maxSeq: upto,
          limit: wanted,
        })
      : [];
  if (items.length < wanted && upto < message.recipientTotal) {
    const list = await cache.get(store, message.id);
    for (const recipient of scanCompactList(list, Math.max(after, upto), filter)) {
      // As accepted: its status dates from the message's accept, as its row will (materialiser).
      items.push({ ...recipient, updatedAt: message.createdAt });
      if (items.length === wanted) break;
    }
  }
  const hasMore = items.length > query.limit;
  const page = items.slice(0, query.limit);
  if (query.after !== undefined) {
    return { items: page, summary, nextCursor: page.at(-1)?.seq ?? after, hasMore };
  }
  const total = await countMatching(store, cache, message, filter, summary);
  return { items: page, summary, total };
}

async function countMatching(
  store: Store,
  cache: CompactListCache,
  message: { id: number; recipientTotal: number; materialisedUpto: number },
  filter: RecipientQuery,
  summary: ReadonlyMap<RecipientStatus, number>,
): Promise<number> {
  if (filter.search === undefined) {
    return filter.status === undefined ? message.recipientTotal : (summary.get(filter.status) ?? 0);
  }
  const upto = message.materialisedUpto;
  let count =
    upto > 0 ? await store.countRecipientRows(message.id, { ...filter, maxSeq: upto }) : 0;
  if (upto < message.recipientTotal) {
    const list = await cache.get(store, message.id);
    for (const _ of scanCompactList(list, upto, filter)) count++;
  }
  return count;
}

/** A whole number in local form (0XXXXXXXXX) is searched in the stored 66XXXXXXXXX form. */
function searchDigits(search: string | undefined): string | undefined {
  if (search === undefined || search === '') return undefined;
  return normalizeMsisdn(search) ?? search;
}
