/**
 * The status board (ADR 0035): every dispatcher process writes its DispatcherStatus into one
 * table row of its own, so that any api process can show every dispatcher, PostgreSQL being
 * the only state the processes share.
 */

/** One bound carrier as its dispatcher process sees it. */
export interface CarrierStatus {
  readonly name: string;
  /** Binds that can submit (transceivers, or transmitters) and are bound. */
  readonly bindsUp: number;
  readonly bindsWanted: number;
  /** Binds that take deliver_sm and are bound: the transceivers, or the receivers. */
  readonly receiversUp: number;
  /** submit_sm sent and not yet answered, over all binds. */
  readonly inFlight: number;
  /** Submits waiting for the rate limit or for a window slot. */
  readonly waiting: number;
  readonly submitsPerSecondLimit: number;
  /** The rate allowed now: the limit, or less while it climbs back after throttled(). */
  readonly currentRatePerSecond: number;
  /** The latest bind failure (refused, could not connect, closed), or null if none yet. */
  readonly lastError: string | null;
}

/** A dispatcher's work in hand and done. */
export interface DispatcherStats {
  readonly chunksHeld: number;
  readonly partsInFlight: number;
  readonly outcomesQueued: number;
  readonly receiptsQueued: number;
  readonly submitted: number;
  readonly receipts: number;
}

/**
 * What a dispatcher process knows of its own delivery: its carriers' binds and rates, and its
 * dispatcher's work. One function per process (start-delivery.ts) reads it, for /status and
 * for the status the process publishes to every other, so the two cannot disagree.
 */
export interface DispatcherStatus {
  readonly carriers: readonly CarrierStatus[];
  readonly dispatcher: DispatcherStats;
}

/** How often a dispatcher writes its status; the console's carriers page asks as often. */
export const STATUS_PUBLISH_MS = 2_000;

/**
 * A status not written again for this long is of a process that died or cannot reach the
 * store: readers leave it out of the figures and name it as silent. Five intervals, so a slow
 * write or a long pause does not make a live process look gone.
 */
export const STATUS_STALE_MS = 5 * STATUS_PUBLISH_MS;

/** A status silent for this long is no longer shown, and the next dispatcher's purge deletes it. */
export const STATUS_FORGET_MS = 5 * 60_000;

/** One dispatcher process's row. */
export interface PublishedStatus {
  /** Names the process (host:pid:random), as its chunk leases do. */
  readonly owner: string;
  readonly startedAt: number;
  readonly writtenAt: number;
  /**
   * Its DispatcherStatus as JSON, written by whichever version of Nok that process runs: a reader
   * checks it before use.
   */
  readonly status: string;
}

/** The board's table (storage/status-board-store.ts). */
export interface StatusBoard {
  /** Writes the process's row, replacing the one it wrote before: one statement. */
  publish(entry: PublishedStatus): Promise<void>;
  remove(owner: string): Promise<void>;
  /** Rows written at or after `sinceMs`, by owner. */
  read(sinceMs: number): Promise<PublishedStatus[]>;
  /** Deletes the rows written before `beforeMs`; returns how many. */
  purge(beforeMs: number): Promise<number>;
}

/** What the console's carriers page reads, in any api process. */
export interface DispatchersView {
  /** Every dispatcher's status written at or after `sinceMs`, by owner. */
  published(sinceMs: number): Promise<PublishedStatus[]>;
  /** Recipients of pending messages not yet in a dispatch chunk, in the whole store. */
  queueDepth(): Promise<number>;
}
