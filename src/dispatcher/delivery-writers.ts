import type { Logger } from 'pino';
import type {
  AppliedReceipt,
  DeliveryStore,
  PartOutcome,
  ReceiptReport,
} from '../domain/delivery/delivery-store.js';
import type { LifecycleEvents } from '../domain/lifecycle-events.js';
import type { Timers } from '../domain/timers.js';
import { BatchWriter } from './batch-writer.js';

/** How submit outcomes and receipts are grouped into commits. */
export interface GroupCommitOptions {
  /** Items that start a commit at once. */
  readonly maxBatch: number;
  /** How long the first item of a batch waits for company. */
  readonly delayMs: number;
  /** After a failed commit, wait this long and write the same items again. */
  readonly retryDelayMs: number;
  /**
   * Receipt batches written at once: the SMSC's receipt windows wait on our commits, and a
   * second batch overlaps its round trips with the first's.
   */
  readonly receiptConcurrency: number;
}

export interface DeliveryWriters {
  readonly outcomes: BatchWriter<PartOutcome>;
  readonly receipts: BatchWriter<ReceiptReport>;
}

/**
 * The dispatcher's two group commits: submit outcomes, and receipts. A receipt batch stores the
 * outcomes queued before it first, so that a receipt finds its submission.
 */
export function createDeliveryWriters(input: {
  readonly delivery: DeliveryStore;
  readonly now: () => number;
  readonly timers: Timers;
  readonly events: LifecycleEvents;
  readonly logger: Logger;
  readonly commit: GroupCommitOptions;
  readonly onReceipts?: (applied: readonly AppliedReceipt[]) => void;
}): DeliveryWriters {
  const { delivery, now, timers, events, logger, commit } = input;
  const outcomes = new BatchWriter<PartOutcome>({
    write: async (items) => {
      await delivery.recordOutcomes(items, now());
      events.emit('outcomesStored', { outcomes: items });
    },
    maxBatch: commit.maxBatch,
    delayMs: commit.delayMs,
    retryDelayMs: commit.retryDelayMs,
    timers,
    logger,
    what: 'submit outcomes',
  });
  const receipts = new BatchWriter<ReceiptReport>({
    write: async (items) => {
      // A receipt usually follows its submit_sm_resp closely, before that outcome's group
      // commit: store the outcomes first, so the receipt finds its submission rather than
      // waiting as an orphan for the sweep.
      await outcomes.flush();
      const applied = await delivery.applyReceipts(items, now());
      events.emit('receiptsStored', { receipts: items.length, applied });
      input.onReceipts?.(applied);
    },
    maxBatch: commit.maxBatch,
    delayMs: commit.delayMs,
    retryDelayMs: commit.retryDelayMs,
    concurrency: commit.receiptConcurrency,
    timers,
    logger,
    what: 'receipts',
  });
  return { outcomes, receipts };
}
