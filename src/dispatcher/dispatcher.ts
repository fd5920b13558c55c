import type { DispatcherStats } from '../domain/delivery/status-board.js';
import type { ReceiptReport } from '../domain/delivery/delivery-store.js';
import type { Timer } from '../domain/timers.js';
import { startLeaseRenewal, startReceiptSweep } from './chunk-upkeep.js';
import { startClaiming, type HeldChunk } from './claim-loop.js';
import { createDeliveryWriters } from './delivery-writers.js';
import type { DispatcherOptions } from './dispatcher-options.js';
import { Slots } from './slots.js';

export interface Dispatcher {
  /** Looks for work now (a send was accepted, a message released). */
  wake(): void;
  /** Stores a receipt; resolves once it is durable (then its deliver_sm may be answered). */
  recordReceipt(report: ReceiptReport): Promise<void>;
  stats(): DispatcherStats;
  /**
   * Stops claiming, waits up to `drainMs` for parts in flight, stores their outcomes and gives
   * back its chunks so another dispatcher takes them over at once. Receipts are still stored
   * until `stopReceipts`, so the carriers' binds can unbind in between.
   */
  stop(drainMs?: number): Promise<void>;
  /** Stores the receipts still queued and refuses more (their deliver_sm go unanswered). */
  stopReceipts(): Promise<void>;
}

/**
 * The dispatcher role: claims chunks of due recipients and submits their parts through the
 * route's carriers (below), records outcomes and receipts in group commits (delivery-writers.ts),
 * renews its leases and sweeps for missing receipts (chunk-upkeep.ts). Chunks are claimed in an
 * order that interleaves messages (DeliveryStore).
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { delivery, events, logger, owner, timers } = options;
  const now = () => options.clock.now();
  const slots = new Slots(options.maxInFlight);
  const held = new Map<string, HeldChunk>();
  let receiptCount = 0;

  const { outcomes, receipts } = createDeliveryWriters({
    delivery,
    now,
    timers,
    events,
    logger,
    commit: options.commit,
    onReceipts: (applied) => options.observer?.receipts(applied),
  });
  const renewal = startLeaseRenewal({
    delivery,
    owner,
    leaseMs: options.leaseMs,
    now,
    timers,
    held: () => [...held.values()].map((h) => h.chunk),
    logger,
  });
  const sweep = startReceiptSweep({
    delivery,
    intervalMs: options.sweepIntervalMs,
    receiptWindowsMs: options.receiptWindowsMs,
    defaultReceiptWindowMs: options.defaultReceiptWindowMs,
    now,
    timers,
    events,
    logger,
  });
  const claims = startClaiming({
    ...options,
    now,
    slots,
    held,
    onOutcome: (outcome) => outcomes.add(outcome),
  });

  return {
    wake: claims.wake,
    recordReceipt(report) {
      receiptCount++;
      return receipts.add(report);
    },
    stats: () => ({
      chunksHeld: held.size,
      partsInFlight: slots.inUse,
      outcomesQueued: outcomes.pending,
      receiptsQueued: receipts.pending,
      submitted: claims.submitted(),
      receipts: receiptCount,
    }),
    async stop(drainMs = 10_000) {
      sweep.stop();
      await claims.stop();
      let deadline: Timer | undefined;
      await Promise.race([
        slots.drained(),
        new Promise<void>((resolve) => (deadline = timers.after(drainMs, resolve))),
      ]);
      deadline?.clear();
      await outcomes.drain();
      await Promise.all([...held.values()].filter((h) => h.outstanding === 0).map(claims.release));
      renewal.stop();
      await outcomes.stop();
    },
    stopReceipts: () => receipts.stop(),
  };
}
