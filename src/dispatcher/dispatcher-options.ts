import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { LifecycleEvents } from '../domain/lifecycle-events.js';
import type { Timers } from '../domain/timers.js';
import type { AppliedReceipt, DeliveryStore } from '../domain/delivery/delivery-store.js';
import type { Router, SubmitAnswer } from '../domain/delivery/carrier-port.js';
import type { GroupCommitOptions } from './delivery-writers.js';
import type { RetryPolicy } from './retry-policy.js';

export interface DispatcherOptions {
  readonly delivery: DeliveryStore;
  readonly route: Router;
  readonly clock: Clock;
  /** What idle polls, lease renewals, sweeps, group commits and their retries wait on. */
  readonly timers: Timers;
  /**
   * Told of chunks claimed, outcomes and receipts stored, sweeps done and messages complete,
   * each once committed.
   */
  readonly events: LifecycleEvents;
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
  /** How submit outcomes and receipts are grouped into commits. */
  readonly commit: GroupCommitOptions;
  /** Told of every carrier answer and every stored receipt (metrics, daily figures). */
  readonly observer?: DispatchObserver;
}

export interface DispatchObserver {
  /** `part`: the 0-based index of the part among its message's parts. */
  submitted(carrier: string, answer: SubmitAnswer, part: number): void;
  receipts(applied: readonly AppliedReceipt[]): void;
}
