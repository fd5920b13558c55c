import type { MessageStatus, RecipientStatus } from '../statuses.js';
import type { PartMask } from './part-mask.js';

/** A recipient a dispatcher may submit: pending, due, with parts the carrier has not accepted. */
export interface DispatchRecipient {
  readonly seq: number;
  readonly msisdn: string;
  /** Bit mask of the parts a carrier already accepted; those are not submitted again. */
  readonly partsAccepted: PartMask;
  /** When its first transient failure happened; the retry window counts from there. */
  readonly firstAttemptAt: number | null;
}

/** A range of one message's recipients, leased to one dispatcher. */
export interface DispatchChunk {
  readonly messageId: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly sender: string;
  readonly content: string;
  readonly parts: number;
  readonly recipients: readonly DispatchRecipient[];
}

/** Final statuses a submit or a receipt can give a recipient. */
export type DeliveryStatus = Extract<
  RecipientStatus,
  'success' | 'failed' | 'invalid' | 'expired' | 'timeout'
>;

/** What became of one part's submit, as the dispatcher records it. */
export type PartOutcome =
  | {
      readonly kind: 'accepted';
      readonly messageId: number;
      readonly seq: number;
      readonly part: number;
      readonly carrier: string;
      readonly smscId: string;
    }
  | {
      /** Not submitted, or refused for now: held back until `nextAttemptAt`. */
      readonly kind: 'retry';
      readonly messageId: number;
      readonly seq: number;
      readonly nextAttemptAt: number;
      readonly error: string;
    }
  | {
      readonly kind: 'final';
      readonly messageId: number;
      readonly seq: number;
      readonly status: Exclude<DeliveryStatus, 'success'>;
      readonly error: string;
    };

/** A receipt as it came from a carrier. */
export interface ReceiptReport {
  readonly carrier: string;
  /** The SMSC's message id as the receipt gave it. */
  readonly smscId: string;
  /** Final outcome of the part; null for an intermediate state (ENROUTE, ACCEPTD). */
  readonly outcome: Extract<DeliveryStatus, 'success' | 'failed' | 'expired'> | null;
  readonly error: string | null;
}

/**
 * Storage of delivery: leases of dispatch chunks, submit outcomes, receipts and their matching,
 * and the counters that move with each status change, each call one transaction. Engine twins
 * implement it (storage/sqlite/delivery-store.ts, storage/postgres/delivery-store.ts).
 */
export interface DeliveryStore {
  /**
   * Leases the next chunk with due work to `owner` until `nowMs + leaseMs`: a chunk whose lease
   * ran out or whose retries are due, else a new chunk carved from the pending message that has
   * been dispatched least (so a one-number send never waits behind a campaign). Null when there
   * is nothing to do.
   */
  claimChunk(input: {
    owner: string;
    nowMs: number;
    leaseMs: number;
    chunkSize: number;
  }): Promise<DispatchChunk | null>;
  /** Records submit outcomes; a recipient already final is left as it is. */
  recordOutcomes(outcomes: readonly PartOutcome[], nowMs: number): Promise<void>;
  /** Extends the lease of chunks `owner` holds. */
  renewLeases(owner: string, chunks: readonly ChunkKey[], untilMs: number): Promise<void>;
  /**
   * Gives a chunk back: deleted when none of its recipients still awaits a submit (and then the
   * message is finished when it was its last chunk), else due again at its next retry. Returns
   * the message when this release finished it, else null.
   */
  releaseChunk(owner: string, chunk: ChunkKey, nowMs: number): Promise<FinishedMessage | null>;
  /**
   * Applies receipts to their recipients; a receipt whose submission is not stored yet is kept
   * as an orphan and matched by `sweep`. Durable when the promise resolves.
   */
  applyReceipts(receipts: readonly ReceiptReport[], nowMs: number): Promise<AppliedReceipt[]>;
  /** Recipients of pending messages not yet in a dispatch chunk. */
  queueDepth(): Promise<number>;
  /**
   * Matches orphan receipts, drops those older than `orphanMaxAgeMs`, and gives `timeout` to
   * recipients whose accepted part has had no receipt within its carrier's receipt window
   * (`defaultReceiptWindowMs` for a carrier not named), a bounded batch of each per call, read
   * in (time, carrier, id) order past `from`. Rows a call leaves in place (orphans still
   * unmatched, submissions within a longer window) are behind the cursor it returns, so the next
   * call reads new ones instead of the same batch again. Returns how many recipients timed out,
   * and where to go on (null: the round is done).
   */
  sweep(input: {
    nowMs: number;
    receiptWindowsMs: ReadonlyMap<string, number>;
    defaultReceiptWindowMs: number;
    orphanMaxAgeMs: number;
    /** Where this call resumes; SWEEP_START (the default) begins a round. */
    from?: SweepCursor;
    /** Rows of each table one call reads at most; SWEEP_BATCH by default. */
    batchSize?: number;
  }): Promise<{ timedOut: number; next: SweepCursor | null }>;
}

/** A row's place in a sweep's order: its time (received or submitted), then its key. */
export interface SweepPosition {
  readonly at: number;
  readonly carrier: string;
  readonly smscId: string;
}

/** Where a sweep round resumes in each table: past this row, or null once the table is done. */
export interface SweepCursor {
  readonly orphans: SweepPosition | null;
  readonly submissions: SweepPosition | null;
}

/** Before every row: times are never negative. */
const FIRST_ROW: SweepPosition = { at: -1, carrier: '', smscId: '' };

export const SWEEP_START: SweepCursor = { orphans: FIRST_ROW, submissions: FIRST_ROW };

/** Orphan receipts, or overdue submissions, one sweep handles at most. */
export const SWEEP_BATCH = 5000;

/**
 * Where the next call of a round resumes: past the last row read of a table whose batch was
 * full, null for one whose batch was not (nothing is left behind it).
 */
export function nextSweepCursor(
  orphans: readonly SweepPosition[],
  submissions: readonly SweepPosition[],
  batchSize: number,
): SweepCursor | null {
  const past = (rows: readonly SweepPosition[]) =>
    rows.length === batchSize ? rows[rows.length - 1]! : null;
  const next = { orphans: past(orphans), submissions: past(submissions) };
  return next.orphans === null && next.submissions === null ? null : next;
}

/** The submissions a sweep may time out: older than the shortest window, by their carrier's. */
export function isOverdue(
  submission: { carrier: string; submitted_at: number },
  input: {
    nowMs: number;
    receiptWindowsMs: ReadonlyMap<string, number>;
    defaultReceiptWindowMs: number;
  },
): boolean {
  const window = input.receiptWindowsMs.get(submission.carrier) ?? input.defaultReceiptWindowMs;
  return submission.submitted_at < input.nowMs - window;
}

/** The shortest receipt window of a sweep: nothing younger can be overdue. */
export function shortestReceiptWindowMs(input: {
  receiptWindowsMs: ReadonlyMap<string, number>;
  defaultReceiptWindowMs: number;
}): number {
  return Math.min(input.defaultReceiptWindowMs, ...input.receiptWindowsMs.values());
}

/** A final receipt that found its submission, for metrics. */
export interface AppliedReceipt {
  readonly carrier: string;
  readonly outcome: NonNullable<ReceiptReport['outcome']>;
  /** From the part's acceptance to its receipt. */
  readonly latencyMs: number;
}

/** A message whose last chunk was released: `sent` when a carrier accepted a part, else `failed`. */
export interface FinishedMessage {
  readonly messageId: number;
  readonly accountId: number;
  readonly status: Extract<MessageStatus, 'sent' | 'failed'>;
}

export interface ChunkKey {
  readonly messageId: number;
  readonly firstSeq: number;
}

/** Ids an SMSC may use for one message: as given, and its hex or decimal twin (no leading 0s). */
export function smscIdForms(id: string): string[] {
  const given = normaliseSmscId(id);
  const forms = [given];
  // Up to 15 decimal or 13 hex digits a double holds exactly, and is converted without BigInt.
  if (DECIMAL.test(given) && given.length <= 20) {
    const hex = given.length <= 15 ? Number(given).toString(16) : BigInt(given).toString(16);
    if (hex !== given) forms.push(hex);
  }
  if (HEX.test(given) && given.length <= 16) {
    const decimal =
      given.length <= 13 ? parseInt(given, 16).toString(10) : BigInt(`0x${given}`).toString(10);
    if (!forms.includes(decimal)) forms.push(decimal);
  }
  return forms;
}

const DECIMAL = /^[0-9]+$/;
const HEX = /^[0-9a-f]+$/;

/** The form a submission is stored under: lower case, leading zeros dropped. */
export function normaliseSmscId(id: string): string {
  const lower = id.trim().toLowerCase();
  const stripped = lower.replace(/^0+(?=.)/, '');
  return stripped;
}
