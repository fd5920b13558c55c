import type { Message, RecipientQuery, RecipientRecord, Store } from '../ports.js';
import { completeCounts } from '../messages/get-message.js';
import { findOwnMessage } from '../messages/find-own-message.js';
import type { RecipientStatus } from '../statuses.js';
import type { CompactListCache } from './compact-list-cache.js';
import { scanCompactList } from './compact-list.js';
import { normalizeMsisdn } from './msisdn.js';
import { countSearchMatches, searchRecipients } from './search-recipients.js';

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
 * pages, totals, filters and search are complete from the moment of accept. A search finds
 * its seqs in the message's search index (search-recipients.ts), never by scanning rows.
 */
export async function listRecipients(
  store: Store,
  cache: CompactListCache,
  accountId: number,
  uuid: string,
  query: RecipientPageQuery,
): Promise<RecipientPage> {
  const message = await findOwnMessage(store, accountId, uuid);
  const filter: RecipientQuery = { status: query.status, search: searchDigits(query.search) };
  const after = query.after ?? 0;
  const wanted = query.limit + 1;
  // The counters and the page are independent reads: one round trip's wait for both.
  const [counts, items] = await Promise.all([
    store.messageCounts(message.id),
    filter.search !== undefined
      ? searchRecipients(store, cache, message, {
          search: filter.search,
          status: filter.status,
          afterSeq: after,
          wanted,
        })
      : browseRecipients(store, cache, message, filter, after, wanted),
  ]);
  const summary = completeCounts(counts);
  return pageOf(items, query, summary, async () => {
    if (filter.search !== undefined) {
      return countSearchMatches(store, cache, message, filter.search, filter.status);
    }
    return filter.status === undefined ? message.recipientTotal : (summary.get(filter.status) ?? 0);
  });
}

/** Recipients after `after` by seq: rows while they exist, then the compact list as accepted. */
async function browseRecipients(
  store: Store,
  cache: CompactListCache,
  message: Message,
  filter: RecipientQuery,
  after: number,
  wanted: number,
): Promise<RecipientRecord[]> {
  const upto = message.materialisedUpto;
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
  return items;
}

/** Cursor paging answers `nextCursor` and `hasMore`; the first page without one, `total`. */
async function pageOf(
  items: RecipientRecord[],
  query: RecipientPageQuery,
  summary: ReadonlyMap<RecipientStatus, number>,
  total: () => Promise<number>,
): Promise<RecipientPage> {
  const hasMore = items.length > query.limit;
  const page = items.slice(0, query.limit);
  if (query.after !== undefined) {
    return { items: page, summary, nextCursor: page.at(-1)?.seq ?? query.after, hasMore };
  }
  return { items: page, summary, total: await total() };
}

/** A whole number in local form (0XXXXXXXXX) is searched in the stored 66XXXXXXXXX form. */
function searchDigits(search: string | undefined): string | undefined {
  if (search === undefined || search === '') return undefined;
  return normalizeMsisdn(search) ?? search;
}
