import type { Logger } from 'pino';
import {
  SWEEP_START,
  type ChunkKey,
  type DeliveryStore,
  type SweepCursor,
} from '../domain/delivery/delivery-store.js';
import type { LifecycleEvents } from '../domain/lifecycle-events.js';
import type { Timers } from '../domain/timers.js';

export interface Upkeep {
  stop(): void;
}

/**
 * Renews the leases of the chunks this dispatcher holds, every third of a lease (at most once a
 * second), so that no other dispatcher takes them over while their parts are in flight.
 */
export function startLeaseRenewal(input: {
  readonly delivery: DeliveryStore;
  readonly owner: string;
  readonly leaseMs: number;
  readonly now: () => number;
  readonly timers: Timers;
  readonly held: () => readonly ChunkKey[];
  readonly logger: Logger;
}): Upkeep {
  const timer = input.timers.every(Math.max(1000, Math.floor(input.leaseMs / 3)), () => {
    const keys = input.held();
    if (keys.length === 0) return;
    input.delivery
      .renewLeases(input.owner, keys, input.now() + input.leaseMs)
      .catch((error: unknown) =>
        input.logger.error({ err: error }, 'renewing chunk leases failed'),
      );
  });
  return { stop: () => timer.clear() };
}

/**
 * Every `intervalMs`, times out the recipients whose receipt is overdue and matches orphan
 * receipts to their submissions (DeliveryStore.sweep). One sweep at a time; a full batch means
 * more is waiting, so it goes on at once past that batch rather than at the next tick, until
 * every orphan and overdue candidate has been read once.
 */
export function startReceiptSweep(input: {
  readonly delivery: DeliveryStore;
  readonly intervalMs: number;
  readonly receiptWindowsMs: ReadonlyMap<string, number>;
  readonly defaultReceiptWindowMs: number;
  readonly now: () => number;
  readonly timers: Timers;
  readonly events: LifecycleEvents;
  readonly logger: Logger;
}): Upkeep {
  let sweeping = false;
  let stopped = false;
  async function sweep(): Promise<void> {
    for (let from: SweepCursor | null = SWEEP_START; from !== null && !stopped;) {
      const result = await input.delivery.sweep({
        nowMs: input.now(),
        receiptWindowsMs: input.receiptWindowsMs,
        defaultReceiptWindowMs: input.defaultReceiptWindowMs,
        orphanMaxAgeMs: input.defaultReceiptWindowMs,
        from,
      });
      if (result.timedOut > 0)
        input.logger.info({ timedOut: result.timedOut }, 'recipients without a receipt timed out');
      input.events.emit('swept', { timedOut: result.timedOut });
      from = result.next;
    }
  }
  const timer = input.timers.every(input.intervalMs, () => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => input.logger.error({ err: error }, 'delivery sweep failed'))
      .finally(() => (sweeping = false));
  });
  return {
    stop() {
      stopped = true;
      timer.clear();
    },
  };
}
