import type { DispatcherStatus } from '../domain/delivery/status-board.js';

/**
 * What the operator listener's /status shows: this process, read from memory and the store by
 * one function per process (main.ts). The console's carriers page shows every dispatcher
 * process instead, from the statuses they publish (domain/delivery/status-board.ts).
 */
export interface OpsStatus {
  readonly roles: Readonly<Record<string, boolean | undefined>>;
  readonly carriers: DispatcherStatus['carriers'];
  readonly dispatcher: DispatcherStatus['dispatcher'] | null;
  readonly queueDepth: number;
  readonly smsc: { readonly host: string; readonly port: number } | null;
}

export type ReadOpsStatus = () => Promise<OpsStatus>;
