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
  // By hour, carrier, figure and label, so that counting one submit or receipt (the hot path)
  // builds no key and allocates nothing once its entry exists.
  type Counts = Map<number, Map<string, Map<DeliveryFigure, Map<string, { count: number }>>>>;
  let counts: Counts = new Map();
  const add = (
    hourStart: number,
    carrier: string,
    figure: DeliveryFigure,
    label: string,
    n: number,
  ) => {
    let byCarrier = counts.get(hourStart);
    if (!byCarrier) counts.set(hourStart, (byCarrier = new Map()));
    let byFigure = byCarrier.get(carrier);
    if (!byFigure) byCarrier.set(carrier, (byFigure = new Map()));
    let byLabel = byFigure.get(figure);
    if (!byLabel) byFigure.set(figure, (byLabel = new Map()));
    const entry = byLabel.get(label);
    if (entry) entry.count += n;
    else byLabel.set(label, { count: n });
  };
  const count = (carrier: string, figure: DeliveryFigure, label: string) =>
    add(Math.floor(input.now() / HOUR_MS) * HOUR_MS, carrier, figure, label, 1);
  const deltas = (taken: Counts): DeliveryFigureDelta[] => {
    const all: DeliveryFigureDelta[] = [];
    for (const [hourStart, byCarrier] of taken)
      for (const [carrier, byFigure] of byCarrier)
        for (const [figure, byLabel] of byFigure)
          for (const [label, { count }] of byLabel)
            all.push({ hourStart, carrier, figure, label, count });
    return all;
  };
  let flushing: Promise<void> = Promise.resolve();
  const flushOnce = async () => {
    if (counts.size === 0) return;
    const taken = deltas(counts);
    counts = new Map();
    try {
      await input.store.addDeliveryFigures(taken);
    } catch (error) {
      input.logger.warn({ err: error }, 'could not store delivery figures; kept for next time');
      for (const d of taken) add(d.hourStart, d.carrier, d.figure, d.label, d.count);
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
