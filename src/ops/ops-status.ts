import type { CarrierStatus } from '../carriers/carrier-binds.js';
import type { DispatcherStats } from '../dispatcher/dispatcher.js';

/**
 * What the operator listener's /status shows, and the console's carriers page with it: one
 * function per process (main.ts) reads it from memory and the store, and both endpoints call
 * that same function, so they cannot disagree.
 */
export interface OpsStatus {
  readonly roles: Readonly<Record<string, boolean | undefined>>;
  readonly carriers: readonly CarrierStatus[];
  readonly dispatcher: DispatcherStats | null;
  readonly queueDepth: number;
  readonly smsc: { readonly host: string; readonly port: number } | null;
}

export type ReadOpsStatus = () => Promise<OpsStatus>;
