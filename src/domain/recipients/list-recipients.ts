import type { Message, MessageStore } from '../messages/message-store.js';
import type { RecipientQuery, RecipientRecord, RecipientStore } from './recipient-store.js';
import { completeCounts } from '../messages/get-message.js';
import { findOwnMessage, isMessageUuid } from '../messages/find-own-message.js';
import type { RecipientStatus } from '../statuses.js';
import type { CompactListCache } from './compact-list-cache.js';
import { shownStatus, storedStatusFor } from './shown-status.js';
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
  store: MessageStore & RecipientStore,
  cache: CompactListCache,
  accountId: number,
  uuid: string,
  query: RecipientPageQuery,
): Promise<RecipientPage> {
  const search = searchDigits(query.search);
  const after = query.after ?? 0;
  const wanted = query.limit + 1;
  const browsing = query.status === undefined && search === undefined;
  // Reads keyed by uuid go out with the message's own, so an unfiltered page costs one round
  // trip after authentication. Nothing read is answered before the ownership check passes.
  const byUuid = isMessageUuid(uuid);
  const [message, counts, firstRows] = await Promise.all([
    findOwnMessage(store, accountId, uuid),
    byUuid ? store.messageCountsByUuid(uuid) : new Map<RecipientStatus, number>(),
    byUuid && browsing ? store.recipientPageByUuid(uuid, after, wanted) : null,
  ]);
  const summary = completeCounts(counts, message.status);
  // Statuses as they read for this message (shown-status.ts): the filter asks for the stored
  // one, and every item found is answered with the shown one.
  const stored =
    query.status === undefined ? undefined : storedStatusFor(message.status, query.status);
  if (stored === null) return pageOf([], query, summary, async () => 0);
  const filter: RecipientQuery = { status: stored, search };
  const found = await findItems(store, cache, message, firstRows, filter, after, wanted);
  const items = found.map((item) => ({
    ...item,
    status: shownStatus(message.status, item.status),
  }));

  return pageOf(items, query, summary, async () => {
    if (filter.search !== undefined) {
      return countSearchMatches(store, cache, message, filter.search, filter.status);
    }
    return query.status === undefined ? message.recipientTotal : (summary.get(query.status) ?? 0);
  });
}

/** The page's recipients with their stored statuses: by search, by rows, then compact list. */
async function findItems(
  store: MessageStore & RecipientStore,
  cache: CompactListCache,
  message: Message,
  firstRows: { rows: RecipientRecord[]; materialisedUpto: number } | null,
  filter: RecipientQuery,
  after: number,
  wanted: number,
): Promise<RecipientRecord[]> {
  let items: RecipientRecord[];
  if (filter.search !== undefined) {
    items = await searchRecipients(store, cache, message, {
      search: filter.search,
      status: filter.status,
      afterSeq: after,
      wanted,
    });
  } else if (firstRows) {
    items = await continueFromCompactList(store, cache, message, firstRows, filter, after, wanted);
  } else {
    const upto = message.materialisedUpto;
    const rows =
      after < upto
        ? await store.recipientRows(message.id, {
            ...filter,
            afterSeq: after,
            maxSeq: upto,
            limit: wanted,
          })
        : [];
    items = await continueFromCompactList(
      store,
      cache,
      message,
      { rows, materialisedUpto: upto },
      filter,
      after,
      wanted,
    );
  }

  return items;
}

/**
 * A page's rows were read up to `materialisedUpto` (as that read saw it); when they fall short,
 * the page goes on from the compact list, where every later recipient is as accepted.
 */
async function continueFromCompactList(
  store: RecipientStore,
  cache: CompactListCache,
  message: Message,
  read: { rows: RecipientRecord[]; materialisedUpto: number },
  filter: RecipientQuery,
  after: number,
  wanted: number,
): Promise<RecipientRecord[]> {
  const items = read.rows;
  if (items.length < wanted && read.materialisedUpto < message.recipientTotal) {
    const list = await cache.get(store, message.id);
    for (const recipient of scanCompactList(list, Math.max(after, read.materialisedUpto), filter)) {
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
