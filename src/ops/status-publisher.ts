import type { Logger } from 'pino';
import {
  STATUS_FORGET_MS,
  STATUS_PUBLISH_MS,
  type DispatcherStatus,
  type StatusBoard,
} from '../domain/delivery/status-board.js';

/** Every this many writes, a dispatcher also deletes the rows silent past STATUS_FORGET_MS. */
const PURGE_EVERY = 30;

export interface StatusPublisher {
  /** Stops writing and deletes the process's row: readers lose it at once. */
  stop(): Promise<void>;
}

/**
 * Publishes this dispatcher process's status on the board (ADR 0035): at once, then every
 * STATUS_PUBLISH_MS, one upsert of its own outside delivery's transactions; a tick that finds
 * the previous write still under way is skipped. On the first write and every PURGE_EVERY-th
 * it also deletes the rows of processes long silent. A write that fails (the store down) is
 * logged once, and tried again at the next tick.
 */
export function startStatusPublisher(input: {
  readonly board: StatusBoard;
  readonly owner: string;
  /** The same function /status reads (start-delivery.ts). */
  readonly read: () => DispatcherStatus;
  readonly now: () => number;
  readonly logger: Logger;
}): StatusPublisher {
  const { board, owner, logger } = input;
  const startedAt = input.now();
  let writes = 0;
  let failing = false;
  let writing: Promise<void> | undefined;

  async function publishOnce(): Promise<void> {
    const nowMs = input.now();
    try {
      const status = JSON.stringify(input.read());
      await board.publish({ owner, startedAt, writtenAt: nowMs, status });
      if (writes++ % PURGE_EVERY === 0) await board.purge(nowMs - STATUS_FORGET_MS);
      if (failing) logger.info('dispatcher status published again');
      failing = false;
    } catch (error) {
      if (!failing) {
        logger.warn({ err: error }, 'could not publish the dispatcher status; trying again');
      }
      failing = true;
    }
  }
  function tick(): void {
    writing ??= publishOnce().finally(() => (writing = undefined));
  }

  tick();
  const timer = setInterval(tick, STATUS_PUBLISH_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await writing;
      try {
        await board.remove(owner);
      } catch (error) {
        logger.warn(
          { err: error },
          'could not remove the dispatcher status; readers leave it out once it is stale',
        );
      }
    },
  };
}
