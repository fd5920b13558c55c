import type { Logger } from 'pino';
import type {
  DeliveryFigure,
  DeliveryFigureDelta,
  DeliveryFiguresStore,
} from '../domain/dashboard/dashboard-store.js';
import { latencyBucketLabel } from '../domain/dashboard/latency-percentiles.js';
import type { DispatchObserver } from './dispatcher-options.js';

const HOUR_MS = 3_600_000;

export interface DeliveryFigures {
  /** Counts what the dispatcher does; hand it to the dispatcher as (part of) its observer. */
  readonly observer: DispatchObserver;
  /** Adds what was counted since the last flush to the store. */
  flush(): Promise<void>;
  /** Stops the timer and flushes once more. */
  stop(): Promise<void>;
}

/**
 * The platform dashboard's figures (ADR 0030): counted in memory per UTC hour and carrier as
 * the dispatcher works, and added to `delivery_figures` every `flushMs` in one statement of
 * their own, outside delivery's transactions. Every dispatcher process adds to the same rows.
 * A flush that fails keeps its counts for the next one; a crash loses at most one interval.
 */
export function startDeliveryFigures(input: {
  readonly store: DeliveryFiguresStore;
  readonly now: () => number;
  readonly logger: Logger;
  readonly flushMs: number;
}): DeliveryFigures {
  let counts = new Map<string, DeliveryFigureDelta>();
  const add = (delta: DeliveryFigureDelta) => {
    const key = `${delta.hourStart}\u0000${delta.carrier}\u0000${delta.figure}\u0000${delta.label}`;
    const found = counts.get(key);
    counts.set(key, { ...delta, count: (found?.count ?? 0) + delta.count });
  };
  const count = (carrier: string, figure: DeliveryFigure, label: string) => {
    const hourStart = Math.floor(input.now() / HOUR_MS) * HOUR_MS;
    add({ hourStart, carrier, figure, label, count: 1 });
  };
  let flushing: Promise<void> = Promise.resolve();
  const flushOnce = async () => {
    if (counts.size === 0) return;
    const taken = counts;
    counts = new Map();
    try {
      await input.store.addDeliveryFigures([...taken.values()]);
    } catch (error) {
      input.logger.warn({ err: error }, 'could not store delivery figures; kept for next time');
      for (const delta of taken.values()) add(delta);
    }
  };
  const flush = () => (flushing = flushing.then(flushOnce));
  const timer = setInterval(() => void flush(), input.flushMs);
  timer.unref();
  return {
    observer: {
      submitted(carrier, answer, part) {
        if (answer.kind === 'accepted') {
          if (part === 0) count(carrier, 'recipients', '');
        } else {
          count(carrier, 'submit-error', answer.code);
        }
      },
      receipts(applied) {
        for (const receipt of applied) {
          count(receipt.carrier, 'receipt-latency', latencyBucketLabel(receipt.latencyMs));
        }
      },
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
