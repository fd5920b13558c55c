import type { RecipientStatus } from '../statuses.js';

/**
 * The recipient list as accepted, before (and besides) its rows: valid numbers take seqs
 * 1..numbers.length in request order (blocked ones flagged), invalid strings the seqs after.
 */
export interface CompactRecipientList {
  readonly numbers: Uint32Array;
  readonly blockedSeqs: readonly number[];
  readonly invalid: readonly string[];
}

export interface RecipientRecord {
  readonly seq: number;
  readonly msisdn: string;
  readonly status: RecipientStatus;
  readonly updatedAt: number | null;
}

export interface RecipientQuery {
  readonly status?: RecipientStatus;
  /** Text to find anywhere in the number, case-insensitively. */
  readonly search?: string;
}

/** A message's recipients: its compact list, its rows, and its per-status counters. */
export interface RecipientStore {
  loadCompactList(messageId: number): Promise<CompactRecipientList>;
  /** Per-status counts of the message with this uuid: keyed by uuid so it can go out with it. */
  messageCountsByUuid(uuid: string): Promise<Map<RecipientStatus, number>>;
  /**
   * Up to `limit` rows after `afterSeq` of the message with this uuid, and the
   * `materialised_upto` the same read saw (rows exist for every seq up to it); null when there
   * is no such message. Keyed by uuid so it can go out with the message's own read.
   */
  recipientPageByUuid(
    uuid: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ rows: RecipientRecord[]; materialisedUpto: number } | null>;
  /** Rows with `afterSeq < seq <= maxSeq` matching the query, by seq. */
  recipientRows(
    messageId: number,
    query: RecipientQuery & { afterSeq: number; maxSeq: number; limit: number },
  ): Promise<RecipientRecord[]>;
  countRecipientRows(
    messageId: number,
    query: RecipientQuery & { maxSeq: number },
  ): Promise<number>;
  /** The rows of these seqs (those that exist), by seq. */
  recipientsBySeq(messageId: number, seqs: readonly number[]): Promise<RecipientRecord[]>;
}
