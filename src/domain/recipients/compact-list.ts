import type { CompactRecipientList, RecipientQuery, RecipientRecord } from './recipient-store.js';
import type { RecipientStatus } from '../statuses.js';
import { suffixToMsisdn } from './msisdn.js';

/** Seqs run 1..total: valid numbers first, in request order, then the invalid strings. */
export function compactTotal(list: CompactRecipientList): number {
  return list.numbers.length + list.invalid.length;
}

/** The recipient at `seq` as accepted: its status before any delivery work. */
export function compactRecipient(
  list: CompactRecipientList,
  seq: number,
  blocked: ReadonlySet<number>,
): RecipientRecord {
  const validCount = list.numbers.length;
  if (seq <= validCount) {
    return {
      seq,
      msisdn: suffixToMsisdn(list.numbers[seq - 1]!),
      status: blocked.has(seq) ? 'blocked' : 'pending',
      updatedAt: null,
    };
  }
  return { seq, msisdn: list.invalid[seq - validCount - 1]!, status: 'invalid', updatedAt: null };
}

/**
 * Walks the compact list from `afterSeq + 1`, yielding recipients that match the query. A status
 * filter jumps to the only ranges that can hold that status.
 */
export function* scanCompactList(
  list: CompactRecipientList,
  afterSeq: number,
  query: RecipientQuery,
): Generator<RecipientRecord> {
  const blocked = new Set(list.blockedSeqs);
  const total = compactTotal(list);
  // Case-insensitive, as the stored rows are searched; numbers are digits, so only a search with
  // letters (for an invalid entry's text) folds each number.
  const needle = query.search?.toLowerCase();
  const fold = needle !== undefined && /\p{L}/u.test(needle);
  const matches = (r: RecipientRecord) =>
    needle === undefined || (fold ? r.msisdn.toLowerCase() : r.msisdn).includes(needle);
  for (const seq of candidateSeqs(list, afterSeq, total, query.status)) {
    const recipient = compactRecipient(list, seq, blocked);
    if ((query.status === undefined || recipient.status === query.status) && matches(recipient))
      yield recipient;
  }
}

function* candidateSeqs(
  list: CompactRecipientList,
  afterSeq: number,
  total: number,
  status: RecipientStatus | undefined,
): Generator<number> {
  const validCount = list.numbers.length;
  if (status === 'blocked') {
    for (const seq of list.blockedSeqs) if (seq > afterSeq) yield seq;
    return;
  }
  let from = afterSeq + 1;
  let to = total;
  if (status === 'invalid') from = Math.max(from, validCount + 1);
  else if (status === 'pending') to = validCount;
  else if (status !== undefined) return; // delivery outcomes never appear before delivery
  for (let seq = from; seq <= to; seq++) yield seq;
}
