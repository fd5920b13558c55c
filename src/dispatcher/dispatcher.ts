import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type {
  AppliedReceipt,
  ChunkKey,
  DeliveryStore,
  DispatchChunk,
  PartOutcome,
  ReceiptReport,
} from '../domain/delivery/delivery-store.js';
import { BatchWriter } from './batch-writer.js';
import type { Router, SubmitAnswer } from './carrier-port.js';
import type { RetryPolicy } from './retry-policy.js';
import { Slots } from './slots.js';
import { submitPart } from './submit-part.js';

export interface DispatcherOptions {
  readonly delivery: DeliveryStore;
  readonly route: Router;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Names this process in chunk leases; unique among dispatchers. */
  readonly owner: string;
  /** Recipients per dispatch chunk. */
  readonly chunkSize: number;
  readonly leaseMs: number;
  /**
   * Parts submitted whose outcome is not stored yet, at most. A crash can send again only
   * these, so it bounds the duplicates a crash can cause; it should cover the carriers' windows.
   */
  readonly maxInFlight: number;
  /** How often an idle dispatcher looks for work (a wake() looks at once). */
  readonly idlePollMs: number;
  readonly retry: RetryPolicy;
  /** An accepted part with no receipt for this long gives its recipient `timeout`, by carrier. */
  readonly receiptWindowsMs: ReadonlyMap<string, number>;
  /** The same for a carrier no longer configured (its submissions from before). */
  readonly defaultReceiptWindowMs: number;
  readonly sweepIntervalMs: number;
  /** Told of every carrier answer and every stored receipt (metrics). */
  readonly observer?: DispatchObserver;
}

export interface DispatchObserver {
  submitted(carrier: string, answer: SubmitAnswer): void;
  receipts(applied: readonly AppliedReceipt[]): void;
}

export interface DispatcherStats {
  readonly chunksHeld: number;
  readonly partsInFlight: number;
  readonly outcomesQueued: number;
  readonly receiptsQueued: number;
  readonly submitted: number;
  readonly receipts: number;
}

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

interface HeldChunk {
  readonly chunk: DispatchChunk;
  outstanding: number;
  issued: boolean;
}

/**
 * The dispatcher role: claims chunks of due recipients, submits their parts through the route's
 * carriers, records outcomes and receipts in group commits, renews its leases, and sweeps for
 * missing receipts. Chunks are claimed in an order that interleaves messages (DeliveryStore).
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { delivery, clock, logger, owner } = options;
  const now = () => clock.now();
  const slots = new Slots(options.maxInFlight);
  const held = new Map<string, HeldChunk>();
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let submitted = 0;
  let receiptCount = 0;

  const outcomes = new BatchWriter<PartOutcome>({
    write: (items) => delivery.recordOutcomes(items, now()),
    maxBatch: 1000,
    delayMs: 1,
    retryDelayMs: 500,
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
      options.observer?.receipts(applied);
    },
    maxBatch: 1000,
    delayMs: 1,
    retryDelayMs: 500,
    // Two batches at once: the SMSC's receipt windows wait on our commits, and a second batch
    // overlaps its round trips with the first's.
    concurrency: 2,
    logger,
    what: 'receipts',
  });

  const renewTimer = setInterval(
    () => {
      if (held.size === 0) return;
      const keys: ChunkKey[] = [...held.values()].map((h) => h.chunk);
      delivery
        .renewLeases(owner, keys, now() + options.leaseMs)
        .catch((error: unknown) => logger.error({ err: error }, 'renewing chunk leases failed'));
    },
    Math.max(1000, Math.floor(options.leaseMs / 3)),
  );
  let sweeping = false;
  async function sweep(): Promise<void> {
    // A full batch means more is waiting: sweep again at once rather than at the next tick.
    for (let more = true; more && !stopping;) {
      const result = await delivery.sweep({
        nowMs: now(),
        receiptWindowsMs: options.receiptWindowsMs,
        defaultReceiptWindowMs: options.defaultReceiptWindowMs,
        orphanMaxAgeMs: options.defaultReceiptWindowMs,
      });
      if (result.timedOut > 0)
        logger.info({ timedOut: result.timedOut }, 'recipients without a receipt timed out');
      more = result.more;
    }
  }
  const sweepTimer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => logger.error({ err: error }, 'delivery sweep failed'))
      .finally(() => (sweeping = false));
  }, options.sweepIntervalMs);

  function idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, options.idlePollMs);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function release(entry: HeldChunk): Promise<void> {
    const key = keyOf(entry.chunk);
    try {
      await delivery.releaseChunk(owner, entry.chunk, now());
    } catch (error) {
      // The lease runs out and the chunk is claimed again; nothing is lost.
      logger.error({ err: error, messageId: entry.chunk.messageId }, 'releasing a chunk failed');
    } finally {
      held.delete(key);
      wakeUp?.();
    }
  }

  function settle(entry: HeldChunk): void {
    entry.outstanding--;
    if (entry.outstanding === 0 && entry.issued) void release(entry);
  }

  /** Issues every due part of the chunk, each once a slot is free. */
  async function issue(entry: HeldChunk): Promise<void> {
    const { chunk } = entry;
    for (const recipient of chunk.recipients) {
      for (let part = 0; part < chunk.parts; part++) {
        if (recipient.partsAccepted & (2 ** part)) continue;
        const granted = await slots.acquire();
        if (!granted) break;
        entry.outstanding++;
        submitted++;
        const outgoing = {
          messageId: chunk.messageId,
          sender: chunk.sender,
          content: chunk.content,
          msisdn: recipient.msisdn,
          part,
        };
        void submitPart(options.route, options.retry, outgoing, recipient, now, options.observer)
          .then((outcome) => outcomes.add(outcome))
          .catch((error: unknown) =>
            logger.error({ err: error, messageId: chunk.messageId }, 'a part outcome was lost'),
          )
          .finally(() => {
            slots.release();
            settle(entry);
          });
      }
      if (stopping) break;
    }
    entry.issued = true;
    entry.outstanding++;
    settle(entry);
  }

  const loop = (async () => {
    while (!stopping) {
      // Claim while this process has room for more parts; a chunk whose parts are all issued
      // no longer needs attention here.
      const busy = [...held.values()].some((h) => !h.issued);
      if (busy) {
        await idle();
        continue;
      }
      let chunk: DispatchChunk | null;
      try {
        chunk = await delivery.claimChunk({
          owner,
          nowMs: now(),
          leaseMs: options.leaseMs,
          chunkSize: options.chunkSize,
        });
      } catch (error) {
        logger.error({ err: error }, 'claiming a chunk failed');
        await idle();
        continue;
      }
      if (!chunk) {
        await idle();
        continue;
      }
      const entry: HeldChunk = { chunk, outstanding: 0, issued: false };
      held.set(keyOf(chunk), entry);
      void issue(entry).then(() => wakeUp?.());
    }
  })();

  return {
    wake: () => wakeUp?.(),
    recordReceipt(report) {
      receiptCount++;
      return receipts.add(report);
    },
    stats: () => ({
      chunksHeld: held.size,
      partsInFlight: slots.inUse,
      outcomesQueued: outcomes.pending,
      receiptsQueued: receipts.pending,
      submitted,
      receipts: receiptCount,
    }),
    async stop(drainMs = 10_000) {
      stopping = true;
      slots.close();
      wakeUp?.();
      await loop;
      const deadline = Date.now() + drainMs;
      while (slots.inUse > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await outcomes.drain();
      await Promise.all([...held.values()].filter((h) => h.outstanding === 0).map(release));
      clearInterval(renewTimer);
      clearInterval(sweepTimer);
      await outcomes.stop();
    },
    stopReceipts: () => receipts.stop(),
  };
}

function keyOf(chunk: ChunkKey): string {
  return `${chunk.messageId}:${chunk.firstSeq}`;
}
