import type { CarrierStatus } from '../carriers/carrier-binds.js';
import type { DispatcherStats } from '../dispatcher/dispatcher.js';

/**
 * What a dispatcher process knows of its own delivery: its carriers' binds and rates, and its
 * dispatcher's work. One function per process (start-delivery.ts) reads it, for /status and
 * for the status the process publishes to every other (ADR 0035), so the two cannot disagree.
 */
export interface DeliveryStatus {
  readonly carriers: readonly CarrierStatus[];
  readonly dispatcher: DispatcherStats;
}

/**
 * What the operator listener's /status shows: this process, read from memory and the store by
 * one function per process (main.ts). The console's carriers page shows every dispatcher
 * process instead, from the statuses they publish (status-board.ts).
 */
export interface OpsStatus {
  readonly roles: Readonly<Record<string, boolean | undefined>>;
  readonly carriers: DeliveryStatus['carriers'];
  readonly dispatcher: DeliveryStatus['dispatcher'] | null;
  readonly queueDepth: number;
  readonly smsc: { readonly host: string; readonly port: number } | null;
}

export type ReadOpsStatus = () => Promise<OpsStatus>;
