import type { Message } from '../messages/message-store.js';
import type { RecipientRecord, RecipientStore } from './recipient-store.js';
import type { RecipientStatus } from '../statuses.js';
import type { CompactListCache } from './compact-list-cache.js';
import { compactRecipient } from './compact-list.js';

/** Seqs resolved per round trip: a page's worth at first, more while a status filter skips. */
const FIRST_BATCH = 64;
const MAX_BATCH = 2000;
/** Above this many matches, a status-filtered total is counted by SQL rather than by seq. */
const MAX_SEQS_TO_RESOLVE = 20_000;

/**
 * Recipients whose number contains `search`, after `afterSeq`, by seq: the message's search
 * index names the matching seqs; those that have rows take their current status from them,
 * the rest their status as accepted.
 */
export async function searchRecipients(
  store: RecipientStore,
  cache: CompactListCache,
  message: Message,
  query: { search: string; status?: RecipientStatus; afterSeq: number; wanted: number },
): Promise<RecipientRecord[]> {
  const index = await cache.searchIndex(store, message.id);
  const items: RecipientRecord[] = [];
  let batch: number[] = [];
  let batchSize = FIRST_BATCH;
  for (const seq of index.matches(query.search, query.afterSeq)) {
    batch.push(seq);
    if (batch.length < batchSize) continue;
    items.push(...(await resolve(store, cache, message, batch, query.status)));
    if (items.length >= query.wanted) return items.slice(0, query.wanted);
    batch = [];
    batchSize = Math.min(MAX_BATCH, batchSize * 4);
  }
  items.push(...(await resolve(store, cache, message, batch, query.status)));
  return items.slice(0, query.wanted);
}

/** How many recipients match `search` (and `status`, when given), over the whole message. */
export async function countSearchMatches(
  store: RecipientStore,
  cache: CompactListCache,
  message: Message,
  search: string,
  status: RecipientStatus | undefined,
): Promise<number> {
  const index = await cache.searchIndex(store, message.id);
  if (status === undefined) return index.count(search);
  const seqs = [...index.matches(search, 0)];
  if (seqs.length > MAX_SEQS_TO_RESOLVE) {
    const upto = message.materialisedUpto;
    const inRows =
      upto > 0 ? await store.countRecipientRows(message.id, { search, status, maxSeq: upto }) : 0;
    const beyond = seqs.filter((seq) => seq > upto);
    return inRows + (await resolve(store, cache, message, beyond, status)).length;
  }
  let count = 0;
  for (let start = 0; start < seqs.length; start += MAX_BATCH) {
    count += (await resolve(store, cache, message, seqs.slice(start, start + MAX_BATCH), status))
      .length;
  }
  return count;
}

/** The recipients of `seqs` (ascending) with their current status, keeping those of `status`. */
async function resolve(
  store: RecipientStore,
  cache: CompactListCache,
  message: Message,
  seqs: readonly number[],
  status: RecipientStatus | undefined,
): Promise<RecipientRecord[]> {
  if (seqs.length === 0) return [];
  const upto = message.materialisedUpto;
  const withRows = seqs.filter((seq) => seq <= upto);
  const rows = new Map(
    (await store.recipientsBySeq(message.id, withRows)).map((row) => [row.seq, row]),
  );
  const beyond = seqs.some((seq) => seq > upto) ? await cache.get(store, message.id) : undefined;
  const blocked = beyond ? new Set(beyond.blockedSeqs) : new Set<number>();
  const resolved: RecipientRecord[] = [];
  for (const seq of seqs) {
    const recipient =
      seq <= upto
        ? rows.get(seq)
        : { ...compactRecipient(beyond!, seq, blocked), updatedAt: message.createdAt };
    if (recipient && (status === undefined || recipient.status === status))
      resolved.push(recipient);
  }
  return resolved;
}
